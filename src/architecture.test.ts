import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = import.meta.dirname

/**
 * The folders in the order they may depend on each other: a file imports from its own layer or
 * a lower one, never a higher one (README, "Layout of the code"; decision 007).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['contract'], // what the page and the server agree on; it imports nothing
  ['styles', 'assets'],
  ['config'],
  ['content'],
  ['rules'],
  ['browser', 'islands'],
  ['components'],
  ['sections'],
  ['pages'],
  ['.'], // the entries, the prerender and the <head>
]

const layerOf = (file: string): number => {
  const top = relative(SRC, file).split(sep)
  const folder = top.length > 1 ? (top[0] ?? '.') : '.'
  const layer = LAYERS.findIndex((names) => names.includes(folder))
  if (layer === -1) throw new Error(`${relative(SRC, file)} is in no layer`)
  return layer
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"?]+)/gm

const sources = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(tsx?|js)$/.test(entry.name))
  .map((entry) => join(entry.parentPath, entry.name))
  .filter((file) => !/\.test\.tsx?$|test-setup\.ts$/.test(file))

describe('the layout of the code', () => {
  it('imports only go down the layers: no component imports a section, no rule the browser', () => {
    const upward = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map(([, specifier = '']) => resolve(dirname(file), specifier))
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    )
    expect(upward).toEqual([])
  })

  it('rules touch no DOM, storage or network', () => {
    const impure = sources
      .filter((file) => relative(SRC, file).startsWith(`rules${sep}`))
      .filter((file) =>
        /\b(document|window|localStorage|sessionStorage|fetch|navigator)\b\s*[.(]/.test(
          readFileSync(file, 'utf8'),
        ),
      )
      .map((file) => relative(SRC, file))
    expect(impure).toEqual([])
  })
})
