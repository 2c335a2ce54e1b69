import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..')
const TOKENS = join(SRC, 'styles', 'tokens.css')

/** A colour written out: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla(). */
const COLOUR_LITERAL = /(?<![\w&-])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3})\b|\b(?:rgba?|hsla?)\(/gi

const sourceFiles = () =>
  readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(css|tsx?|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => file !== TOKENS && !/\.test\.tsx?$/.test(file))

describe('colours', () => {
  it('are written only in styles/tokens.css: styles, components and scripts use its tokens', () => {
    const literals = sourceFiles().flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          [...line.matchAll(COLOUR_LITERAL)].map(
            (match) => `${relative(SRC, file)}:${index + 1}: ${match[0]}`,
          ),
        ),
    )
    expect(literals).toEqual([])
  })

  it('each token a stylesheet uses is declared', () => {
    const declared = new Set(
      [...readFileSync(TOKENS, 'utf8').matchAll(/(--[\w-]+)\s*:/g)].map(([, name]) => name),
    )
    const undeclared = sourceFiles()
      .filter((file) => file.endsWith('.css'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/var\((--[\w-]+)/g)]
          .map(([, name]) => name ?? '')
          .filter((name) => !declared.has(name) && !name.startsWith('--local-'))
          .map((name) => `${relative(SRC, file)}: ${name}`),
      )
    expect(undeclared).toEqual([])
  })
})
