// `npm run outbox`: lists the demo requests the local stand-in stored, newest first;
// `npm run outbox -- --xlsx > solicitudes.xlsx` exports them as a spreadsheet, oldest first, and
// `npm run outbox -- --csv > solicitudes.csv` as CSV for other tools.
// Honours DATA_DIR (default <repo>/.data), like the server. It streams: a 1 GB outbox is read
// and written in flat memory. It runs from the build (scripts/outbox.mjs) with no dev
// dependencies.
import { constants, fstatSync, ftruncateSync, readFileSync, writeSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ATTRIBUTION_MAX_LENGTH, type AttributionParam } from '../src/contract/attribution.js'
import { CONTACT_NUMBER_PARAM, FIELD_NAMES } from '../src/contract/demo-request.js'
import { outboxPath, streamOutbox, streamOutboxNewestFirst, type OutboxRecord } from './outbox.js'
import { writeXlsx } from './outbox-xlsx.js'
import { visibleControls } from './visible-text.js'

/** Known template params, in the order a reader wants them. */
const LABELS: [string, string][] = [
  ['user_name', 'Name'],
  ['user_email', 'E-mail'],
  ['user_phone', 'Phone'],
  ['user_group', 'Group'],
  ['message', 'Message'],
  ['contact_number', 'Contact number'],
]
const KNOWN = new Set(LABELS.map(([name]) => name))
const WIDTH = 18

/** The CSV's columns: the record's id and time, then the template params the page sends. */
export const CSV_COLUMNS = [
  'id',
  'receivedAt',
  ...FIELD_NAMES,
  CONTACT_NUMBER_PARAM,
  ...(Object.keys(ATTRIBUTION_MAX_LENGTH) as AttributionParam[]),
] as const

/** Excel and LibreOffice read UTF-8 only when the file says so. */
export const UTF8_BOM = '\uFEFF'

const USAGE = [
  'usage: npm run outbox                 list the stored demo requests, newest first',
  '       npm run outbox -- --xlsx > solicitudes.xlsx',
  '                                      export them as a spreadsheet (every cell text, oldest first)',
  '       npm run outbox -- --csv > solicitudes.csv',
  '                                      export them as CSV (UTF-8, oldest first)',
].join('\n')
const FORMATS = new Set(['--csv', '--xlsx'])

function field(label: string, value: string): string {
  // Multi-line messages stay aligned under their label; what a terminal would act on is shown.
  const [first = '', ...rest] = visibleControls(value.replace(/\r\n/g, '\n')).split('\n')
  const indent = ' '.repeat(WIDTH + 2)
  return [`  ${`${label}:`.padEnd(WIDTH)}${first}`, ...rest.map((line) => indent + line)].join('\n')
}

export function formatRecord(record: OutboxRecord, index: number): string {
  const lines = [`#${index}  ${visibleControls(`${record.receivedAt}  (${record.id})`)}`]
  for (const [name, label] of LABELS) lines.push(field(label, record.params[name] ?? '—'))
  const others = Object.keys(record.params)
    .filter((name) => !KNOWN.has(name))
    .sort()
  for (const name of others) lines.push(field(visibleControls(name), record.params[name] ?? ''))
  lines.push(field('Service/template', `${record.serviceId} / ${record.templateId}`))
  return lines.join('\n')
}

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (= + - @, or a
 * leading tab or carriage return) gets a leading apostrophe: visitors type these fields.
 */
export function csvField(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert
}

export function csvRow(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}

export function csvRecord(record: OutboxRecord): string {
  return csvRow(
    CSV_COLUMNS.map((column) =>
      column === 'id'
        ? record.id
        : column === 'receivedAt'
          ? record.receivedAt
          : (record.params[column] ?? ''),
    ),
  )
}

/** Collects output into large chunks and waits for the sink: memory stays flat. */
export class ChunkedOutput {
  private parts: string[] = []
  private pending = 0

  constructor(private readonly sink: (chunk: string) => Promise<void>) {}

  async write(text: string): Promise<void> {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= 256 * 1024) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return
    const chunk = this.parts.join('')
    this.parts = []
    this.pending = 0
    await this.sink(chunk)
  }
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`

/** Writes the CSV; returns how many requests it holds and how many lines were unreadable. */
export async function writeCsv(file: string, output: ChunkedOutput, endBytes = Infinity) {
  let count = 0
  let skipped = 0
  await output.write(UTF8_BOM + csvRow(CSV_COLUMNS))
  for await (const entry of streamOutbox(file, endBytes)) {
    if ('record' in entry) {
      count++
      await output.write(csvRecord(entry.record))
    } else {
      skipped++
    }
  }
  await output.flush()
  return { count, skipped }
}

/** Writes the readable listing, newest first, numbered in arrival order. */
export async function writeListing(file: string, output: ChunkedOutput, endBytes = Infinity) {
  // Two passes over the same bytes: the count for the header, then the records backwards.
  let count = 0
  let skipped = 0
  for await (const entry of streamOutbox(file, endBytes)) {
    if ('record' in entry) count++
    else skipped++
  }
  if (count === 0) {
    await output.write(`No demo requests stored yet (looked in ${file}).\n`)
    await output.flush()
    return
  }
  const torn = skipped > 0 ? ` (${plural(skipped, 'unreadable line')} skipped)` : ''
  await output.write(`${plural(count, 'demo request')} in ${file}, newest first${torn}:\n`)
  let index = count
  for await (const entry of streamOutboxNewestFirst(file, endBytes)) {
    if ('record' in entry) await output.write(`\n${formatRecord(entry.record, index--)}\n`)
  }
  await output.flush()
}

/**
 * `npm run outbox -- --csv > file` (not silent) has npm print its "> gaspre-landing@1.0.0
 * outbox" banner into the file before this process starts. When standard output is a file the
 * shell truncated (not opened for appending) and already holds those few bytes, they are
 * npm's, and the CSV is written over them from the first byte, so the file starts with the BOM.
 */
function stdoutHoldsNpmBanner(): boolean {
  if (process.env.npm_lifecycle_event === undefined) return false
  try {
    const stats = fstatSync(1)
    if (!stats.isFile() || stats.size === 0 || stats.size > 1024) return false
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))?.[1]
    return flags !== undefined && (parseInt(flags, 8) & constants.O_APPEND) === 0
  } catch {
    return false // not Linux, or no way to tell: leave the file alone
  }
}

function stdoutSink(overwriteBanner: boolean): (chunk: string | Buffer) => Promise<void> {
  if (overwriteBanner) {
    ftruncateSync(1, 0)
    let position = 0
    return async (chunk) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      for (let done = 0; done < bytes.length;) {
        done += writeSync(1, bytes, done, bytes.length - done, position + done)
      }
      position += bytes.length
    }
  }
  return (chunk) =>
    new Promise((resolveWrite) => {
      if (process.stdout.write(chunk)) resolveWrite()
      else process.stdout.once('drain', resolveWrite)
    })
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const args = new Set(argv)
  if (args.has('--help') || args.has('-h')) {
    console.log(USAGE)
    return 0
  }
  const unknown = [...args].filter((arg) => !FORMATS.has(arg))
  if (unknown.length > 0) {
    console.error(`outbox: unknown option ${unknown.join(' ')}\n${USAGE}`)
    return 2
  }
  if (args.has('--csv') && args.has('--xlsx')) {
    console.error(`outbox: choose one of --csv and --xlsx\n${USAGE}`)
    return 2
  }
  if (args.has('--xlsx') && process.stdout.isTTY) {
    console.error('outbox: --xlsx writes a file: npm run outbox -- --xlsx > solicitudes.xlsx')
    return 2
  }
  // A reader that stops early (| head) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })

  const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
  const file = outboxPath(resolve(process.env.DATA_DIR ?? resolve(repoRoot, '.data')))
  // A snapshot: requests the server stores meanwhile wait for the next run.
  const endBytes = await stat(file).then(
    (stats) => stats.size,
    () => 0,
  )
  try {
    if (args.has('--xlsx')) {
      const { count, skipped } = await writeXlsx(file, stdoutSink(stdoutHoldsNpmBanner()), endBytes)
      const torn = skipped > 0 ? `; ${plural(skipped, 'unreadable line')} skipped` : ''
      console.error(`outbox: exported ${plural(count, 'demo request')} from ${file}${torn}`)
    } else if (args.has('--csv')) {
      const output = new ChunkedOutput(stdoutSink(stdoutHoldsNpmBanner()))
      const { count, skipped } = await writeCsv(file, output, endBytes)
      const torn = skipped > 0 ? `; ${plural(skipped, 'unreadable line')} skipped` : ''
      console.error(`outbox: exported ${plural(count, 'demo request')} from ${file}${torn}`)
    } else {
      await writeListing(file, new ChunkedOutput(stdoutSink(false)), endBytes)
    }
  } catch (error) {
    console.error(`outbox: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
