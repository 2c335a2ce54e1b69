// `npm run outbox -- --xlsx`: the demo requests as a real spreadsheet for the sales team. Every
// cell is a text cell holding exactly what was sent, so no spreadsheet turns a phone number into
// a number (dropping its leading zeros or its +), a typed date into a date serial, or a long
// digit string into 1.2E+19; and text is never a formula. The heading row is frozen and
// filterable, and each column is as wide as its longest value (within reason).
import { once } from 'node:events'
import { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import { spreadsheetHeadings, spreadsheetSheetName } from '../../src/contract/lead-server-text.js'
import type { StoredRequest } from '../store/index.js'
import type { DemoRequests } from '../demo-requests/index.js'
import { deliveryState, whatsAppLines } from './delivery-lines.js'
import { arrivedAt, visibleControls } from '../text/index.js'

type Column = keyof typeof spreadsheetHeadings
const COLUMNS = Object.keys(spreadsheetHeadings) as Column[]
const MIN_WIDTH = 8
const MAX_WIDTH = 60
/** Columns whose text runs long: wrapped instead of widened. */
const WRAPPED: ReadonlySet<Column> = new Set(['message', 'delivery_whatsapp'])

/**
 * The text as the file must hold it for a spreadsheet to show it as it is. Excel and LibreOffice
 * read `_xHHHH_` in a cell as the character HHHH (OOXML's escape for what XML cannot hold, e.g.
 * `_x000D_` a carriage return), and exceljs writes text as given: so the underscore that starts
 * a literal one is written as `_x005F_`, the escape of `_`. Each such underscore, overlapping
 * ones too (`_x005F_x000D_` typed has two).
 */
const literalText = (text: string): string => text.replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_')

/** A cell's text. Control characters, which XML cannot hold, are written as visible escapes. */
function cell(record: StoredRequest, column: Column, timeZone: string): string {
  return literalText(cellText(record, column, timeZone))
}

function cellText(record: StoredRequest, column: Column, timeZone: string): string {
  if (column === 'delivery_email' || column === 'delivery_webhook') {
    const channel = column === 'delivery_email' ? 'email' : 'webhook'
    const delivery = record.deliveries.find((each) => each.channel === channel)
    return delivery === undefined ? '' : deliveryState(delivery, timeZone)
  }
  if (column === 'delivery_whatsapp') {
    const delivery = record.deliveries.find((each) => each.channel === 'whatsapp')
    if (delivery === undefined || record.whatsapp === null) return ''
    return [deliveryState(delivery, timeZone), ...whatsAppLines(record.whatsapp, timeZone)].join(
      '\n',
    )
  }
  if (column === 'meeting') {
    if (record.meeting == null) return ''
    const when = arrivedAt(new Date(record.meeting.start).toISOString(), timeZone)
    return `${when} (${timeZone}), con ${record.meeting.rep}`
  }
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

/** Writes the workbook to `sink`, oldest first; returns how many requests it holds. */
export async function writeXlsx(
  store: Pick<DemoRequests, 'requests'>,
  sink: (chunk: Buffer) => Promise<void>,
  timeZone: string,
): Promise<number> {
  // First pass: the widths. The store is read twice rather than held in memory.
  const widths = new Map(COLUMNS.map((column) => [column, widthOf(spreadsheetHeadings[column])]))
  for await (const request of store.requests({ oldestFirst: true })) {
    for (const column of COLUMNS) {
      widths.set(
        column,
        Math.max(widths.get(column) ?? 0, widthOf(cellText(request, column, timeZone))),
      )
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
  for await (const request of store.requests({ oldestFirst: true })) {
    count++
    sheet.addRow(COLUMNS.map((column) => cell(request, column, timeZone))).commit()
  }
  sheet.commit()
  // The writer ends the stream itself; what is left is for the sink to take the last bytes.
  const finished = once(stream, 'finish')
  await workbook.commit()
  await finished
  return count
}
