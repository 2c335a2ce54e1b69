import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { decapRequire } from './install.mjs'
import { spanish } from './locale.ts'

type Phrases = { [key: string]: string | Phrases }

/** Decap's own phrases in a language, as its bundle carries them (decap-cms-locales). */
const decapLocales = dirname(
  createRequire(decapRequire().resolve('decap-cms')).resolve('decap-cms-locales/package.json'),
)
const decapPhrases = async (language: string) =>
  (
    (await import(pathToFileURL(join(decapLocales, 'src', language, 'index.js')).href)) as {
      default: Phrases
    }
  ).default
const en = await decapPhrases('en')
const es = await decapPhrases('es')

function* phrases(tree: Phrases, at = ''): Generator<[string, string]> {
  for (const [key, value] of Object.entries(tree))
    if (typeof value === 'string') yield [`${at}${key}`, value]
    else yield* phrases(value, `${at}${key}.`)
}

const editorSpanish = new Map(phrases(spanish(es)))

describe('the editor’s Spanish', () => {
  it('has every phrase Decap has in English, so none shows in English', () => {
    const missing = [...phrases(en)].map(([key]) => key).filter((key) => !editorSpanish.has(key))
    expect(missing).toEqual([])
  })

  it('speaks to the marketer as tú, as content/LEEME.md does', () => {
    const usted =
      /\b(ha rellenado|rellénelo|desea|Está seguro|copie|infórmenos|actualice|arrastre|Tiene cambios|guárdelos)\b/
    const formal = [...editorSpanish].filter(([, text]) => usted.test(text)).map(([key]) => key)
    expect(formal).toEqual([])
  })
})
