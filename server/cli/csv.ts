// `npm run outbox -- --csv`: the stored requests as CSV for a spreadsheet, oldest first. The
// quoting is csv-stringify's (RFC 4180); what is ours is what a spreadsheet would misread in a
// visitor's text: a formula, and a `;`, on which spreadsheets set to Spanish split a line.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { stringify, type Options } from 'csv-stringify'
import { stringify as stringifySync } from 'csv-stringify/sync'
import { ATTRIBUTION_MAX_LENGTH, type AttributionParam } from '../../src/contract/attribution.js'
import { CONTACT_NUMBER_PARAM, FIELD_NAMES } from '../../src/contract/demo-request.js'
import type { DemoRequests } from '../demo-requests/index.js'
import type { DemoRequestRecord } from '../store/index.js'

/**
 * The CSV's columns: the record's id and time, then the template params the page sends.
 * @internal its tests use it too
 */
export const CSV_COLUMNS = [
  'id',
  'receivedAt',
  ...FIELD_NAMES,
  CONTACT_NUMBER_PARAM,
  ...(Object.keys(ATTRIBUTION_MAX_LENGTH) as AttributionParam[]),
] as const

/**
 * What a spreadsheet would run as a formula: = + - @ (or their full-width forms, which Apple
 * Numbers reads as them), also after leading spaces, which spreadsheets skip; or a leading tab
 * or carriage return.
 */
const FORMULA = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u

/** A cell's text with a leading apostrophe when a spreadsheet would run it: visitors type it. */
const inertCell = (value: string): string => (FORMULA.test(value) ? `'${value}` : value)

const CELL_OPTIONS: Options = {
  record_delimiter: 'windows',
  // A line break of any kind inside a cell is quoted, not only CRLF (csv-stringify's default
  // once the delimiter is set).
  quote_record_delimiter: true,
  // Quoted, a `;` stays inside its cell for a spreadsheet that splits on it (es-MX, es-ES).
  quoted_match: /;/,
  cast: { string: inertCell },
}

/**
 * One CSV line, CRLF-terminated, as `--csv` writes each request.
 * @internal its tests use it too
 */
export const csvRow = (values: readonly string[]): string =>
  stringifySync([[...values]], CELL_OPTIONS)

const cellsOf = (record: DemoRequestRecord): string[] =>
  CSV_COLUMNS.map((column) =>
    column === 'id'
      ? record.id
      : column === 'receivedAt'
        ? record.receivedAt
        : (record.params[column] ?? ''),
  )

/**
 * Writes the CSV (UTF-8 BOM, which Excel and LibreOffice need to read it as UTF-8, then the
 * heading line) to `write`, oldest first, one page of the store at a time; returns how many
 * requests it holds.
 */
export async function writeCsv(
  store: Pick<DemoRequests, 'requests'>,
  write: (text: string) => Promise<void>,
): Promise<number> {
  let count = 0
  async function* rows() {
    for await (const request of store.requests({ oldestFirst: true })) {
      count++
      yield cellsOf(request)
    }
  }
  const csv = stringify({ ...CELL_OPTIONS, bom: true, header: true, columns: [...CSV_COLUMNS] })
  csv.setEncoding('utf8')
  await pipeline(Readable.from(rows()), csv, async (chunks: AsyncIterable<string>) => {
    for await (const chunk of chunks) await write(chunk)
  })
  return count
}
