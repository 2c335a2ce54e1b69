// `npm run outbox -- --xlsx`: the demo requests as a real spreadsheet for the sales team. Every
// cell is a text cell holding exactly what was sent, so no spreadsheet turns a phone number into
// a number (dropping its leading zeros or its +), a typed date into a date serial, or a long
// digit string into 1.2E+19; and text is never a formula. The heading row is frozen and
// filterable, and each column is as wide as its longest value (within reason).
import { once } from 'node:events'
import { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import { spreadsheetHeadings, spreadsheetSheetName } from '../src/content/lead-server.js'
import { streamOutbox, type OutboxRecord } from './outbox.js'
import { visibleControls } from './visible-text.js'

type Column = keyof typeof spreadsheetHeadings
const COLUMNS = Object.keys(spreadsheetHeadings) as Column[]
const MIN_WIDTH = 8
const MAX_WIDTH = 60
/** Columns whose text runs long: wrapped instead of widened. */
const WRAPPED: ReadonlySet<Column> = new Set(['message'])

/** A cell's text. Control characters, which XML cannot hold, are written as visible escapes. */
function cell(record: OutboxRecord, column: Column): string {
  const value =
    column === 'id'
      ? record.id
      : column === 'receivedAt'
        ? record.receivedAt
        : (record.params[column] ?? '')
  return visibleControls(value)
}

const widthOf = (text: string): number =>
  Math.max(...text.split('\n').map((line) => [...line].length))

/** Writes the workbook to `sink`; returns how many requests it holds and how many lines were unreadable. */
export async function writeXlsx(
  file: string,
  sink: (chunk: Buffer) => Promise<void>,
  endBytes = Infinity,
): Promise<{ count: number; skipped: number }> {
  // First pass: the widths. The file is read twice rather than held in memory.
  const widths = new Map(COLUMNS.map((column) => [column, widthOf(spreadsheetHeadings[column])]))
  for await (const entry of streamOutbox(file, endBytes)) {
    if (!('record' in entry)) continue
    for (const column of COLUMNS) {
      widths.set(column, Math.max(widths.get(column) ?? 0, widthOf(cell(entry.record, column))))
    }
  }

  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      sink(chunk).then(() => done(), done)
    },
  })
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  })
  const sheet = workbook.addWorksheet(spreadsheetSheetName, {
    views: [{ state: 'frozen', ySplit: 1 }],
  })
  sheet.columns = COLUMNS.map((column) => ({
    header: spreadsheetHeadings[column],
    key: column,
    width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, (widths.get(column) ?? 0) + 2)),
    // '@' keeps a value typed into the cell later as text too.
    style: {
      numFmt: '@',
      alignment: { vertical: 'top', wrapText: WRAPPED.has(column) },
    },
  }))
  const heading = sheet.getRow(1)
  heading.font = { bold: true }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } }

  let count = 0
  let skipped = 0
  for await (const entry of streamOutbox(file, endBytes)) {
    if (!('record' in entry)) {
      skipped++
      continue
    }
    count++
    sheet.addRow(COLUMNS.map((column) => cell(entry.record, column))).commit()
  }
  sheet.commit()
  // The writer ends the stream itself; what is left is for the sink to take the last bytes.
  const finished = once(stream, 'finish')
  await workbook.commit()
  await finished
  return { count, skipped }
}
