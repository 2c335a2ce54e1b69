import {
  isAlias,
  isMap,
  isNode,
  isScalar,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type YAMLError,
} from 'yaml'
import type { z } from 'zod'
import { contentFiles } from '../../src/copy/schema.ts'
import { ContentError, fieldPath } from './content-error.ts'

/**
 * How a content file is read and checked, by the build, the dev server and the editor alike
 * (this module runs in Node and in the editor's page): YAML read strictly, each mistake told in
 * Spanish with its line and what to do, then the file checked against its schema.
 */

export type ContentFileName = keyof typeof contentFiles

/** The line a field is written on (its name's line), or that of the nearest field that is there. */
export function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]) {
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

const UNREADABLE = 'el archivo no se puede leer aquí'
const QUOTE_IT =
  "ponlo entre comillas simples, por ejemplo title: 'GASPRE: inteligencia en precios'"

/** What to do about a YAML mistake, in the words of content/LEEME.md. */
function yamlSyntaxReason(error: YAMLError, line: string) {
  const colonInValue = /^\s*(- )?[^\s:#'"][^:#]*: [^'"].*: /.test(line)
  const noSpaceAfterColon = /^\s*(- )?[\w-]+:[^\s/]/.test(line)
  switch (error.code) {
    case 'TAB_AS_INDENT':
      return `${UNREADABLE}: la sangría lleva un tabulador; usa solo espacios, como en las líneas de arriba`
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      if (colonInValue)
        return `${UNREADABLE}: el texto lleva «: » y sin comillas se lee como otro campo; ${QUOTE_IT}`
      if (noSpaceAfterColon)
        return `${UNREADABLE}: falta un espacio después de «:»; escribe «nombre: texto»`
      return `${UNREADABLE}: revisa la sangría de esta línea y la de arriba (cada campo de un grupo empieza en la misma columna) y, si el texto lleva «: », ${QUOTE_IT}`
    case 'BAD_INDENT':
      return `${UNREADABLE}: la sangría de esta línea no cuadra con la de los campos de su grupo; alinéala con ellos, solo con espacios`
    case 'DUPLICATE_KEY':
      return 'un campo aparece dos veces en el mismo grupo: deja solo uno'
    case 'MISSING_CHAR':
      return `${UNREADABLE}: falta cerrar unas comillas; un texto que abre con ' o " cierra con la misma comilla`
    case 'BAD_SCALAR_START':
      return `${UNREADABLE}: el texto empieza por un signo que no puede ir sin comillas (@, \`, %, |, >); ${QUOTE_IT}`
    case 'UNEXPECTED_TOKEN':
      return `${UNREADABLE}: sobra algo tras el texto; si el texto lleva una comilla simple dentro, escríbela dos veces ('Grupo D''Angelo'), y revisa la sangría`
    case 'BAD_DQ_ESCAPE':
      return `${UNREADABLE}: una barra invertida (\\) entre comillas dobles; usa comillas simples`
    default:
      return `${UNREADABLE}: revisa la sangría y las comillas de esta línea; un texto que empieza por un signo o lleva «: » va entre comillas simples`
  }
}

/**
 * What YAML reads without complaint but not as written: a `#` that cuts a text short (the rest
 * becomes a note), a text starting with `*`, `&` or `!` (read as a reference or a type).
 */
function silentMistake(document: Document, lines: LineCounter) {
  let found: { line: number; reason: string } | undefined
  visit(document, (_key, node) => {
    if (!isNode(node) || !node.range) return undefined
    const line = lines.linePos(node.range[0]).line
    if (isScalar(node) && node.comment !== undefined && node.comment !== null && !found)
      found = {
        line,
        reason: `«#» corta el texto: lo que sigue a « #» se lee como una nota y no se publica; si el # es parte del texto, ${QUOTE_IT.replace('GASPRE: inteligencia en precios', 'Somos el #1')}`,
      }
    if ((isAlias(node) || node.anchor || (isScalar(node) && node.tag)) && !found)
      found = {
        line,
        reason: `${UNREADABLE}: un texto que empieza por «*», «&» o «!» va entre comillas simples, por ejemplo title: '*Oferta'`,
      }
    return found ? visit.BREAK : undefined
  })
  return found
}

/** Reads YAML, reporting any mistake in Spanish with its line. */
export function parseYaml(file: string, source: string) {
  const lines = new LineCounter()
  const document = parseDocument(source, { lineCounter: lines, prettyErrors: false })
  const [error] = document.errors
  if (error) {
    const line = lines.linePos(error.pos[0]).line
    throw new ContentError(
      file,
      line,
      '',
      yamlSyntaxReason(error, source.split(/\r?\n/)[line - 1] ?? ''),
    )
  }
  const mistake = silentMistake(document, lines)
  if (mistake) throw new ContentError(file, mistake.line, '', mistake.reason)
  return { document, lines }
}

/**
 * Checks a structured content file against its schema and returns what the site renders,
 * with a way to find the line of any field in it. Pictures come back as their references,
 * which the build then processes (pipeline/loader/images.ts). Throws a ContentError naming
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

/**
 * Why the editor cannot show a file as its schema says, or undefined if it can: a YAML mistake,
 * a field it does not know, or a value of another kind than the field's (a group where a text
 * goes, which the form would show as `Map {…}`). A value the form can show and fix (too long,
 * a wrong link, an empty text) is left to the form's own checks.
 */
export function unreadableProblem(name: ContentFileName, source: string): ContentError | undefined {
  const file = `content/${name}`
  try {
    const { document, lines } = parseYaml(file, source)
    if (!isMap(document.contents))
      return new ContentError(
        file,
        1,
        '',
        'el archivo debe ser una lista de campos «nombre: valor»',
      )
    const result = contentFiles[name].safeParse(document.toJS(), { reportInput: true })
    const issue = result.error?.issues.find(
      (candidate) =>
        candidate.code === 'unrecognized_keys' ||
        (candidate.code === 'invalid_type' && candidate.input !== undefined),
    )
    if (!issue) return undefined
    return new ContentError(
      file,
      lineOf(document, lines, issue.path),
      fieldPath(issue.path),
      issue.message,
    )
  } catch (error) {
    if (error instanceof ContentError) return error
    throw error
  }
}
