import { isMap, isScalar, isSeq, parseDocument, stringify, type Document } from 'yaml'
import { contentFiles } from '../src/copy/schema.ts'
import { unreadableProblem, type ContentFileName } from '../pipeline/loader/check-file.ts'
import { addChecks, addPreview, noteRead, type Decap as DecapChecks } from './setup.ts'
import { addSpanish, translatePage } from './locale.ts'

/**
 * How the content editor reads and writes content/*.yml: a publish changes the lines that
 * changed and nothing else. Decap's own YAML format writes the whole file anew, dropping the
 * comments that guide whoever edits it on the Git host and folding every long line, so a
 * one-word edit would come with a diff of the whole file.
 *
 * The last text read of each file is kept (the files are told apart by their top-level fields,
 * which no two share); writing applies the edited values onto it.
 */
const readDocuments = new Map<string, Document>()

/** What each file held when last read, by its entry's name (inicio): the preview's pictures. */
const publishedFiles = new Map<string, Value>()

/** Written as the repository's formatter writes YAML (Prettier), so a publish passes its check. */
const WRITE_OPTIONS = { lineWidth: 0, singleQuote: true, flowCollectionPadding: false }

type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value }

const signature = (data: Value) =>
  data && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data).sort().join() : ''

/** Which content file a text is, by its top-level fields (no two files share one). */
function fileOf(document: Document): ContentFileName | undefined {
  const keys = isMap(document.contents)
    ? document.contents.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''))
    : []
  const overlap = (name: ContentFileName) =>
    keys.filter((key) => key in contentFiles[name].shape).length
  const [best] = (Object.keys(contentFiles) as ContentFileName[]).toSorted(
    (a, b) => overlap(b) - overlap(a),
  )
  return best && overlap(best) > 0 ? best : undefined
}

/**
 * A file the editor cannot show as its schema says (a YAML mistake, a group where a text goes)
 * is not shown at all: its form stays empty, the problem is told, and it cannot be published
 * until the file is fixed (setup.ts). Shown half-read, its damage would be published.
 */
export function fromFile(text: string): Value {
  const document = parseDocument(text)
  const name = fileOf(document)
  const problem = name ? unreadableProblem(name, text) : undefined
  if (name) noteRead(name, problem?.message)
  if (problem) return {}
  const data = (document.toJS() ?? {}) as Value
  readDocuments.set(signature(data), document)
  if (name) publishedFiles.set(name.replace(/\.yml$/, ''), structuredClone(data))
  return data
}

/** The node for `value`, reusing `node` (its comments, its quotes) where it still fits. */
function patched(document: Document, node: unknown, value: Value): unknown {
  if (Array.isArray(value)) {
    if (!isSeq(node)) return document.createNode(value)
    node.items = value.map((item, index) => patched(document, node.items[index], item))
    return node
  }
  if (value && typeof value === 'object') {
    if (!isMap(node)) return document.createNode(value)
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
      if (!(key in value) || value[key] === undefined) node.delete(key)
    }
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue
      node.set(key, patched(document, node.get(key, true), item))
    }
    return node
  }
  if (isScalar(node)) {
    if (node.value !== value) node.value = value
    return node
  }
  return document.createNode(value)
}

/** JSON with every object's keys in one order: the editor hands its fields over in its own. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join()}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map(
            (key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`,
          )
          .join()}}`
      : JSON.stringify(value)

const sameData = (a: unknown, b: unknown) => canonical(a) === canonical(b)

export function toFile(data: Value): string {
  const read = readDocuments.get(signature(data))
  if (!read) return stringify(data, WRITE_OPTIONS)
  const document = read.clone()
  document.contents = patched(document, document.contents, data) as typeof document.contents
  const text = document.toString(WRITE_OPTIONS)
  // Whatever the patch missed, the data wins: written plainly rather than wrongly.
  return sameData(parseDocument(text).toJS(), data) ? text : stringify(data, WRITE_OPTIONS)
}

/** A legal text's front matter (its title, with the notes above it) and the Markdown below. */
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---\r?\n/

/** The front matter last read of each legal text, by its title. */
const readFrontMatters = new Map<string, Document>()
let lastFrontMatter: Document | undefined

/**
 * Reads a legal text (terminos.md, privacidad.md) as Decap's own front-matter format does, its
 * fields and `body`, keeping the front matter's text so that a publish keeps its notes. The
 * Markdown starts at its first line, so a line the editor names is the one the marketer sees.
 */
export function proseFromFile(text: string): Value {
  const match = FRONT_MATTER.exec(text)
  if (!match) return { body: text }
  const document = parseDocument(match[1]!)
  const front = document.toJS() as Value
  if (!front || typeof front !== 'object' || Array.isArray(front)) return { body: text }
  readFrontMatters.set(String(front.title), document)
  lastFrontMatter = document
  return { ...front, body: text.slice(match[0].length).replace(/^(\r?\n)+/, '') }
}

/**
 * Writes a legal text back: its front matter as it was read, with the edited title, a blank
 * line, and the Markdown. Both texts' notes are the same, so a text whose title was just
 * changed takes the notes of the last one read.
 */
export function proseToFile(data: Value): string {
  const { body = '', ...front } = (data && typeof data === 'object' ? data : {}) as Record<
    string,
    Value
  >
  const read = readFrontMatters.get(String(front.title)) ?? lastFrontMatter
  let frontText = stringify(front, WRITE_OPTIONS)
  if (read) {
    const document = read.clone()
    document.contents = patched(document, document.contents, front) as typeof document.contents
    const text = document.toString(WRITE_OPTIONS)
    if (sameData(parseDocument(text).toJS(), front)) frontText = text
  }
  const markdown = String(body).replace(/^(\r?\n)+/, '')
  return `---\n${frontText}---\n\n${markdown.endsWith('\n') ? markdown : `${markdown}\n`}`
}

type Decap = DecapChecks & {
  registerCustomFormat(
    name: string,
    extension: string,
    format: { fromFile(text: string): Value; toFile(data: Value): string },
  ): void
  init(): void
}

const cms = (globalThis as unknown as { CMS?: Decap }).CMS
if (cms) {
  cms.registerCustomFormat('yml-in-place', 'yml', { fromFile, toFile })
  cms.registerCustomFormat('md-in-place', 'md', { fromFile: proseFromFile, toFile: proseToFile })
  addChecks(cms)
  addSpanish(cms)
  // The preview renders the site's own components: compiled by Vite in development (npm run
  // cms), and built beside the editor for a Git host (editor/build.ts).
  if (import.meta.env.DEV) {
    // What Vite puts in a page of the site before its components (React's refresh preamble).
    const refresh = '/@react-refresh'
    const { injectIntoGlobalHook } = (await import(/* @vite-ignore */ refresh)) as {
      injectIntoGlobalHook(window: Window): void
    }
    injectIntoGlobalHook(window)
    Object.assign(window, {
      $RefreshReg$: () => {},
      $RefreshSig$: () => (type: unknown) => type,
      __vite_plugin_react_preamble_installed__: true,
    })
  }
  // A content file the site cannot be built from cannot be previewed either: the editor
  // starts without the preview, and tells what to fix (noteRead).
  await import('./preview.tsx').then(
    (preview) => addPreview(cms, preview, (name) => publishedFiles.get(name)),
    (error: unknown) => console.warn('La vista previa no está disponible:', error),
  )
  cms.init()
  translatePage(document)
}
