// `npm run test:html` (after `npm run build`): checks the built pages with the Nu Html Checker
// (vnu-jar, installed on first use into testing/tools/; needs Java 17+ on PATH or in JAVA_HOME).
//
// Prints every error and warning (type, file, line:column, message, and a short extract),
// exits 1 if any page has an error. Warnings are printed but do not fail. The last line is
// `N passed, M failed` (files without / with errors); CI reads it.
//
//   node testing/check-html.mjs          errors and warnings
//   node testing/check-html.mjs --all    also vnu's informational notes
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { vnuJar } from './tools/install.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const DIST = resolve(root, 'dist')
// The pages the build wrote (dist/.site.json, from src/config/site-facts.ts) and its 404 page.
const SITE_FACTS = join(DIST, '.site.json')
/** @type {string[]} */
const PAGES = existsSync(SITE_FACTS)
  ? [
      ...JSON.parse(readFileSync(SITE_FACTS, 'utf8')).pages.map(
        (/** @type {{ file: string }} */ page) => page.file,
      ),
      '404.html',
    ]
  : []
const showInfo = process.argv.includes('--all')

/**
 * One message of vnu's JSON output.
 * @typedef {object} VnuMessage
 * @property {'error' | 'info' | 'non-document-error'} type
 * @property {string} [subType]  'warning' for info messages that are warnings; 'fatal', 'io', ...
 * @property {string} [url]  file: URL of the checked document
 * @property {number} [lastLine]
 * @property {number} [firstColumn]
 * @property {number} [lastColumn]
 * @property {string} message
 * @property {string} [extract]
 * @property {number} [hiliteStart]
 * @property {number} [hiliteLength]
 */

/** @param {string} message */
function fail(message) {
  console.error(message)
  console.log(`0 passed, ${PAGES.length} failed`)
  process.exit(1)
}

if (PAGES.length === 0) fail('dist/.site.json is missing: run `npm run build` first.')
// The checker's jar, installed on first use into testing/tools/ (its own package.json).
const VNU_JAR = vnuJar()
if (!existsSync(VNU_JAR)) fail(`The Nu Html Checker is missing (${relative(root, VNU_JAR)}).`)

const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java'
const files = PAGES.map((page) => join(DIST, page))
const present = files.filter((file) => existsSync(file))

/** @type {Map<string, VnuMessage[]>} */
const byFile = new Map(files.map((file) => [file, []]))
for (const file of files) {
  if (!present.includes(file)) {
    byFile.get(file)?.push({ type: 'error', message: 'File not found: the build did not write it' })
  }
}

if (present.length > 0) {
  const args = [
    '-Xss4m', // vnu's README: a larger thread stack avoids StackOverflowError on deep documents
    '-jar',
    VNU_JAR,
    '--format',
    'json',
    '--stdout',
    '--exit-zero-always', // failures are decided here, from the messages
    '--asciiquotes',
    ...(showInfo ? [] : ['--skip-info-messages']),
    ...present,
  ]
  /** @type {string} */
  const stdout = await new Promise((resolvePromise) => {
    execFile(java, args, { maxBuffer: 64 * 1024 * 1024 }, (error, out, err) => {
      if (error) {
        const reason =
          /** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT'
            ? `Java was not found (${java}); the Nu Html Checker needs Java 17+.`
            : `The Nu Html Checker failed: ${error.message}\n${err}`
        fail(reason)
      }
      resolvePromise(out)
    })
  })
  /** @type {{ messages: VnuMessage[] }} */
  let report
  try {
    report = JSON.parse(stdout)
  } catch {
    fail(`Could not read the Nu Html Checker's output:\n${stdout.slice(0, 2000)}`)
    throw new Error('unreachable')
  }
  for (const message of report.messages) {
    const file = message.url ? fileURLToPath(message.url) : undefined
    const list = file ? byFile.get(file) : undefined
    if (list) list.push(message)
    else for (const other of byFile.values()) other.push(message) // not tied to one file
  }
}

/** A message's label: error, warning, info or the non-document error's kind. @param {VnuMessage} m */
function label(m) {
  if (m.type === 'error') return 'error'
  if (m.type === 'info') return m.subType === 'warning' ? 'warning' : 'info'
  return `fatal (${m.subType ?? m.type})`
}

/** The highlighted part of the extract, with a little context, on one short line. @param {VnuMessage} m */
function extract(m) {
  if (!m.extract) return ''
  const start = m.hiliteStart ?? 0
  const end = start + (m.hiliteLength ?? 0)
  let text = m.extract.slice(Math.max(0, start - 30), Math.min(m.extract.length, end + 30))
  text = text.replace(/\s+/g, ' ').replace(/(;base64,)[A-Za-z0-9+/=]{16,}/g, '$1…')
  return text.length > 160 ? `${text.slice(0, 157)}…` : text
}

let passed = 0
let failed = 0
let warnings = 0
for (const [file, messages] of byFile) {
  const name = relative(root, file)
  const errors = messages.filter((m) => m.type !== 'info').length
  warnings += messages.filter((m) => m.type === 'info' && m.subType === 'warning').length
  console.log(
    `\n${errors > 0 ? '✗' : '✓'} ${name}: ${errors} error(s), ${messages.length - errors} other`,
  )
  for (const m of messages) {
    const where = m.lastLine ? `${m.lastLine}:${m.firstColumn ?? m.lastColumn ?? ''}` : '-'
    console.log(`  ${label(m).padEnd(7)} ${name}:${where}  ${m.message}`)
    const snippet = extract(m)
    if (snippet) console.log(`          ${snippet}`)
  }
  if (errors > 0) failed++
  else passed++
}

console.log(`\nWarnings: ${warnings} (printed, not failing).`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
