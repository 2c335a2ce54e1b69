import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { proseFrontMatterSchema, type ProseDocument } from '../../src/copy/schema.ts'
import { checkContentFile, lineOf, parseYaml, type ContentFileName } from './check-file.ts'
import { ContentError, fieldPath } from './content-error.ts'
import { parseProse } from './prose.ts'

export { checkContentFile, type ContentFileName }

/** The folder the content lives in, at the top of the repository. */
export const CONTENT_DIR = join(import.meta.dirname, '..', '..', 'content')

/** @internal the schema's tests check samples with it */
export function parseContentFile<Name extends ContentFileName>(name: Name, source: string) {
  return checkContentFile(name, source).data
}

/** @internal what the browser suites read the copy with (testing/content.ts) */
export function readContentFile<Name extends ContentFileName>(name: Name) {
  return parseContentFile(name, readFileSync(join(CONTENT_DIR, name), 'utf8'))
}

/** Reads a legal text: its front matter (the title) and the Markdown below it. */
export function parseProseFile(name: string, source: string): ProseDocument {
  const file = `content/${name}`
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source)
  if (!match)
    throw new ContentError(
      file,
      1,
      '',
      'el archivo debe empezar con su título entre dos líneas «---», por ejemplo:\n---\ntitle: Términos y condiciones de uso\n---',
    )
  const { document, lines } = parseYaml(file, match[1]!)
  const front = proseFrontMatterSchema.safeParse(document.toJS() ?? {})
  if (!front.success) {
    const [issue] = front.error.issues
    const line = lineOf(document, lines, issue!.path)
    throw new ContentError(
      file,
      line === undefined ? 2 : line + 1,
      fieldPath(issue!.path),
      issue!.message,
    )
  }
  const bodyStartLine = match[0].split('\n').length
  const body = source.slice(match[0].length)
  return { title: front.data.title, ...parseProse(file, body, bodyStartLine) }
}

/** @internal */
export function readProseFile(name: string) {
  return parseProseFile(name, readFileSync(join(CONTENT_DIR, name), 'utf8'))
}
