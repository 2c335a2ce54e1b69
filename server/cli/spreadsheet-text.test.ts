// Whatever text the server accepts, the sales team's spreadsheet holds: every code point that
// passes the demo request's checks is written into an xlsx and read back by exceljs's own reader.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { expect, it } from 'vitest'
import { spreadsheetHeadings } from '../../src/contract/lead-server-text.js'
import { MAX_LENGTH } from '../../src/contract/demo-request.js'
import { LARGEST_RECORD_BYTES, checkTemplateParams } from '../intake/demo-request-check.js'
import { openLeadStore } from '../store/lead-store.js'
import { newRecord } from '../store/record.js'
import { writeXlsx } from './xlsx.js'
import { visibleControls } from '../text/visible-text.js'
import { DEMO_PARAMS } from '../../testing/server/demo-request.js'

/** Every code point, in messages as long as the form allows, that the server would store. */
function acceptedMessages(): string[] {
  const messages: string[] = []
  let message = ''
  for (let code = 0; code <= 0x10ffff; code++) {
    const character = String.fromCodePoint(code)
    if (message.length + character.length > MAX_LENGTH.message) {
      messages.push(message)
      message = ''
    }
    const candidate = message + character
    if (checkTemplateParams({ ...DEMO_PARAMS, message: `x${character}` }) === null) {
      message = candidate
    }
  }
  messages.push(message)
  return messages
}

it('every code point the server accepts is written into the xlsx and read back by exceljs as shown', async () => {
  const messages = acceptedMessages()
  const accepted = messages.reduce((sum, text) => sum + [...text].length, 0)
  // All of Unicode but the controls, lone surrogates, noncharacters and a few marks.
  expect(accepted).toBeGreaterThan(1_100_000)
  for (const message of messages) {
    expect(checkTemplateParams({ ...DEMO_PARAMS, message })).toBeNull()
  }

  const dir = await mkdtemp(join(tmpdir(), 'gaspre-xlsx-'))
  const store = await openLeadStore(
    { dataDir: dir },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  try {
    // One second apart, so that the spreadsheet's order (oldest first) is the messages' order.
    const records = messages.map((message, index) => ({
      ...newRecord('s', 't', { ...DEMO_PARAMS, message }),
      receivedAt: new Date(Date.UTC(2026, 10, 25, 12, 0, index)).toISOString(),
    }))
    // In one transaction: the subject is the spreadsheet, and a commit with its sync per
    // request made this test seconds longer (the request's own write is lead-store.test.ts's).
    expect(await store.importRecords(records)).toBe(records.length)
    const chunks: Buffer[] = []
    const count = await writeXlsx(
      store,
      async (chunk) => void chunks.push(chunk),
      'America/Mexico_City',
    )
    expect(count).toBe(messages.length)

    const file = join(dir, 'solicitudes.xlsx')
    await writeFile(file, Buffer.concat(chunks))
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(file)
    const sheet = workbook.worksheets[0]!
    const column = Object.keys(spreadsheetHeadings).indexOf('message') + 1
    const read = records.map((_, index) => sheet.getRow(index + 2).getCell(column).text)
    expect(read).toEqual(messages.map(visibleControls))
  } finally {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  }
})

/**
 * What Excel and LibreOffice show of a cell's text: each `_xHHHH_` is the character HHHH
 * (OOXML's ST_Xstring escape). exceljs's reader leaves a cell's value as the file holds it.
 */
const asASpreadsheetShows = (text: string): string =>
  text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

it('a literal _xHHHH_ in a request is shown as typed, not as the character it would escape', async () => {
  const typed = [
    'Planta_x000D_Norte',
    '_x0041_',
    'a_x000d_b',
    '_x005F_x000D_',
    '__x0009__',
    '_x12_ y _xZZZZ_',
  ]
  const dir = await mkdtemp(join(tmpdir(), 'gaspre-xlsx-'))
  const store = await openLeadStore(
    { dataDir: dir },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  try {
    for (const [index, message] of typed.entries()) {
      await store.append({
        ...newRecord('s', 't', { ...DEMO_PARAMS, user_group: message, message }),
        receivedAt: new Date(Date.UTC(2026, 10, 25, 12, 0, index)).toISOString(),
      })
    }
    const chunks: Buffer[] = []
    await writeXlsx(store, async (chunk) => void chunks.push(chunk), 'America/Mexico_City')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    for (const name of ['message', 'user_group'] as const) {
      const column = Object.keys(spreadsheetHeadings).indexOf(name) + 1
      const shown = typed.map((_, index) =>
        asASpreadsheetShows(sheet.getRow(index + 2).getCell(column).text),
      )
      expect(shown).toEqual(typed)
    }
  } finally {
    await store.close()
    await rm(dir, { recursive: true, force: true })
  }
})
