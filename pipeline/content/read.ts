import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml'
import type { z } from 'zod'
import {
  contentFiles,
  proseFrontMatterSchema,
  type ProseDocument,
} from '../../src/content/schema.ts'
import { ContentError, fieldPath } from './content-error.ts'
import { parseProse } from './prose.ts'

export type ContentFileName = keyof typeof contentFiles

/** The folder the content lives in, at the top of the repository. */
export const CONTENT_DIR = join(import.meta.dirname, '..', '..', 'content')

/** The line a field is written on (its name's line), or that of the nearest field that is there. */
function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]) {
  for (let depth = path.length; depth >= 0; depth--) {
    const parent = document.getIn(path.slice(0, depth - 1) as unknown[], true)
    const key = path[depth - 1]
    const pair = isMap(parent)
      ? parent.items.find((item) => isScalar(item.key) && item.key.value === key)
      : undefined
    const node = pair?.key ?? document.getIn(path.slice(0, depth) as unknown[], true)
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line
  }
  return undefined
}

/** Reads YAML, reporting a syntax error with its line. */
function parseYaml(file: string, source: string) {
  const lines = new LineCounter()
  const document = parseDocument(source, { lineCounter: lines, prettyErrors: false })
  const [error] = document.errors
  if (error) {
    const line = lines.linePos(error.pos[0]).line
    throw new ContentError(file, line, '', yamlSyntaxReason(error.code, error.message))
  }
  return { document, lines }
}

function yamlSyntaxReason(code: string, message: string) {
  if (code === 'BAD_INDENT' || code === 'MISSING_CHAR' || code === 'BAD_SCALAR_START')
    return `el archivo no se puede leer aquí: revisa la sangría y, si el texto empieza por un signo (#, *, &, !, |, >, ', ", %, @, \`) o lleva «: », ponlo entre comillas (${message.split('\n')[0]})`
  if (code === 'DUPLICATE_KEY') return 'un campo aparece dos veces en el mismo grupo: deja solo uno'
  return `el archivo no se puede leer aquí: ${message.split('\n')[0]}`
}

/**
 * Checks a structured content file against its schema and returns what the site renders,
 * with a way to find the line of any field in it. Pictures come back as their references,
 * which the build then processes (pipeline/content/images.ts). Throws a ContentError naming
 * the file, line and field.
 */
export function checkContentFile<Name extends ContentFileName>(name: Name, source: string) {
  const file = `content/${name}`
  const { document, lines } = parseYaml(file, source)
  if (!isMap(document.contents))
    throw new ContentError(file, 1, '', 'el archivo debe ser una lista de campos «nombre: valor»')
  const lineAt = (path: readonly PropertyKey[]) => lineOf(document, lines, path)
  const result = contentFiles[name].safeParse(document.toJS())
  if (!result.success) {
    // A misspelt name also leaves its field missing: the misspelling is the one to tell first.
    const issues = result.error.issues.toSorted(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    )
    const [first, ...more] = issues.map(
      (issue) => new ContentError(file, lineAt(issue.path), fieldPath(issue.path), issue.message),
    )
    throw new ContentError(first!.file, first!.line, first!.field, first!.reason, more)
  }
  return { data: result.data as z.output<(typeof contentFiles)[Name]>, lineAt }
}

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
