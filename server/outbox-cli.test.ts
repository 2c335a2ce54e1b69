import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spreadsheetHeadings, spreadsheetSheetName } from '../src/content/lead-server.js'
import { CSV_COLUMNS, csvField, formatRecord } from './outbox-cli.js'
import { outboxPath, type OutboxRecord } from './outbox.js'
import { OUTBOX_CLI_JS, REPO_ROOT, compileServer } from '../testing/server/spawn-server.js'

const run = promisify(execFile)
let dir: string

const record = (n: number, receivedAt: string, params: Record<string, string>): OutboxRecord => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  receivedAt,
  serviceId: 'service_local',
  templateId: 'template_demo',
  params,
})

const RECORDS = [
  record(1, '2025-09-01T10:00:00.000Z', { user_name: 'Primera', user_email: 'a@x.mx' }),
  record(2, '2025-09-02T10:00:00.000Z', { user_name: 'Segunda', user_email: 'b@x.mx' }),
  record(3, '2025-09-03T10:00:00.000Z', {
    user_name: 'Tercera',
    user_email: 'c@x.mx',
    user_phone: '555 123',
    user_group: 'Grupo Sur',
    message: 'Línea uno\nLínea dos',
    contact_number: '4821',
    utm_source: 'google',
    utm_campaign: 'otoño',
  }),
]

beforeAll(async () => {
  compileServer()
  dir = await mkdtemp(join(tmpdir(), 'gaspre-cli-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('npm run outbox', () => {
  it('says where it looked when nothing is stored', async () => {
    const { stdout } = await run(process.execPath, [OUTBOX_CLI_JS], {
      env: { ...process.env, DATA_DIR: join(dir, 'empty') },
    })
    expect(stdout.trim()).toBe(
      `No demo requests stored yet (looked in ${outboxPath(join(dir, 'empty'))}).`,
    )
  })

  it('lists the stored requests of DATA_DIR newest (last stored) first, with every param', async () => {
    const data = join(dir, 'data')
    await mkdir(data)
    const lines = RECORDS.map((r) => JSON.stringify(r)).join('\n')
    await writeFile(outboxPath(data), `${lines}\n{"torn`)
    const { stdout } = await run(process.execPath, [OUTBOX_CLI_JS], {
      env: { ...process.env, DATA_DIR: data },
    })
    expect(stdout).toContain(`3 demo requests in ${outboxPath(data)}, newest first`)
    expect(stdout).toContain('1 unreadable line skipped')
    const order = ['Tercera', 'Segunda', 'Primera'].map((name) => stdout.indexOf(name))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    for (const text of [
      '2025-09-03T10:00:00.000Z',
      'c@x.mx',
      '555 123',
      'Grupo Sur',
      'Línea uno',
      'Línea dos',
      'Contact number:',
      '4821',
      'utm_source:',
      'google',
      'otoño',
    ]) {
      expect(stdout).toContain(text)
    }
  })

  it('formats a multi-line message aligned under its label', () => {
    const text = formatRecord(RECORDS[2] as OutboxRecord, 3)
    expect(text).toMatch(/ {2}Message: +Línea uno\n {20}Línea dos/)
  })

  it('exports CSV for a spreadsheet: BOM, RFC 4180 quoting, attribution columns, oldest first', async () => {
    const data = join(dir, 'csv')
    await mkdir(data)
    const tricky = record(4, '2025-09-04T10:00:00.000Z', {
      user_name: '=HYPERLINK("http://x.example","clic")',
      user_email: '@SUM(1+1)@x.mx',
      user_phone: '+52 55 1234 5678',
      user_group: 'Gasolineras "El Águila", S.A.',
      message: 'Hola,\nnecesito precios; ¿mañana?',
      contact_number: '9',
      traffic_source: 'Google Ads',
      gclid: 'abc',
      landing_page: '/',
      first_visit_at: '2025-09-04T09:59:00.000Z',
    })
    const lines = [...RECORDS, tricky].map((r) => JSON.stringify(r)).join('\n')
    await writeFile(outboxPath(data), `${lines}\n{"torn`)
    const { stdout, stderr } = await run(process.execPath, ['scripts/outbox.mjs', '--csv'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: data },
    })
    expect(stdout.startsWith('\uFEFFid,receivedAt,user_name,user_email,user_phone,')).toBe(true)
    const rows = stdout.slice(1).split('\r\n')
    expect(rows.pop()).toBe('')
    expect(rows[0]).toBe(CSV_COLUMNS.join(','))
    expect(rows[0]).toBe(
      'id,receivedAt,user_name,user_email,user_phone,user_group,message,contact_number,' +
        'traffic_source,utm_source,utm_medium,utm_campaign,utm_term,utm_content,gclid,fbclid,' +
        'referrer,landing_page,first_visit_at',
    )
    expect(rows).toHaveLength(5)
    expect(rows[1]).toBe(
      `${RECORDS[0]?.id},2025-09-01T10:00:00.000Z,Primera,a@x.mx${','.repeat(15)}`,
    )
    expect(rows[3]).toContain(
      ',Tercera,c@x.mx,555 123,Grupo Sur,"Línea uno\nLínea dos",4821,,google,,otoño,',
    )
    expect(rows[4]).toBe(
      `${tricky.id},2025-09-04T10:00:00.000Z,` +
        `"'=HYPERLINK(""http://x.example"",""clic"")",'@SUM(1+1)@x.mx,'+52 55 1234 5678,` +
        `"Gasolineras ""El Águila"", S.A.","Hola,\nnecesito precios; ¿mañana?",9,Google Ads,` +
        `,,,,,abc,,,/,2025-09-04T09:59:00.000Z`,
    )
    expect(stderr.trim()).toBe(
      `outbox: exported 4 demo requests from ${outboxPath(data)}; 1 unreadable line skipped`,
    )
  })

  it('neutralises every formula trigger, and quotes only what needs quoting', () => {
    expect(csvField('=1+1')).toBe("'=1+1")
    expect(csvField('+1')).toBe("'+1")
    expect(csvField('-1')).toBe("'-1")
    expect(csvField('@A1')).toBe("'@A1")
    expect(csvField('\t=1')).toBe("'\t=1")
    expect(csvField('\r=1')).toBe(`"'\r=1"`)
    expect(csvField('a=1')).toBe('a=1')
    expect(csvField('Peña')).toBe('Peña')
    expect(csvField('')).toBe('')
    expect(csvField('a,b')).toBe('"a,b"')
  })

  it("`npm run outbox -- --csv > file` writes a file that starts with the BOM, not npm's banner", async () => {
    const data = join(dir, 'npm')
    await mkdir(data)
    await writeFile(outboxPath(data), RECORDS.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const out = join(dir, 'solicitudes.csv')
    await run('sh', ['-c', 'npm run outbox -- --csv > "$OUT"'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: data, OUT: out },
    })
    const csv = await readFile(out, 'utf8')
    expect(csv.startsWith(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`)).toBe(true)
    expect(csv.split('\r\n')).toHaveLength(5)
    // Appending (>>) is left alone: the banner stays, nothing is overwritten.
    await run('sh', ['-c', 'npm run outbox -- --csv >> "$OUT"'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: data, OUT: out },
    })
    const appended = await readFile(out, 'utf8')
    expect(appended.startsWith(csv)).toBe(true)
    expect(appended.slice(csv.length)).toContain('> node scripts/outbox.mjs --csv')
  })

  it('refuses unknown options, and says to build first when there is no build', async () => {
    const unknown = run(process.execPath, ['scripts/outbox.mjs', '--xls'], { cwd: REPO_ROOT })
    await expect(unknown).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown option --xls/),
    })
    const bare = join(dir, 'bare')
    await mkdir(join(bare, 'scripts'), { recursive: true })
    await writeFile(
      join(bare, 'scripts', 'outbox.mjs'),
      await readFile(join(REPO_ROOT, 'scripts', 'outbox.mjs')),
    )
    const unbuilt = run(process.execPath, ['scripts/outbox.mjs'], { cwd: bare })
    await expect(unbuilt).rejects.toMatchObject({
      code: 1,
      stderr: 'outbox: there is no server build yet; run `npm run build` first.\n',
    })
  })
})

describe('the spreadsheet for the sales team', () => {
  const AS_TYPED = [
    '0034612345678',
    '0445512345678',
    '5512345678',
    '2026-01-02',
    '12345678901234567890',
    '+52 55 1234 5678',
    '=HYPERLINK("http://evil.example","x")',
    '1e5',
    'TRUE',
  ]

  it('npm run outbox -- --xlsx writes a real workbook in which every cell is the text as sent', async () => {
    const data = join(dir, 'xlsx')
    await mkdir(data)
    const records = AS_TYPED.map((phone, i) =>
      record(i, `2026-01-0${(i % 9) + 1}T10:00:00.000Z`, {
        user_name: 'Peña Otoño',
        user_email: `v${i}@grupo.mx`,
        user_phone: phone,
        user_group: phone,
        message: 'Línea uno\nLínea dos',
        contact_number: '00042',
      }),
    )
    // A request stored before control characters were refused still exports, visibly.
    records.push(
      record(9, '2025-01-01T00:00:00.000Z', { user_name: 'Ana\u001b[8m', user_email: 'x' }),
    )
    await writeFile(outboxPath(data), records.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const file = join(dir, 'solicitudes.xlsx')
    // As `npm run outbox -- --xlsx > file` runs it: npm's banner first, into the same file,
    // which must not end up in the workbook.
    const banner =
      'printf "\\n> gaspre-landing@1.0.0 outbox\\n> node scripts/outbox.mjs --xlsx\\n\\n"'
    await run('sh', ['-c', `{ ${banner}; exec "$NODE" "$CLI" --xlsx; } > "$OUT"`], {
      env: {
        ...process.env,
        DATA_DIR: data,
        NODE: process.execPath,
        CLI: OUTBOX_CLI_JS,
        OUT: file,
        npm_lifecycle_event: 'outbox',
      },
    })
    expect((await readFile(file)).subarray(0, 2).toString()).toBe('PK')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(file)
    const sheet = workbook.worksheets[0]!
    expect(sheet.name).toBe(spreadsheetSheetName)
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    const headings = sheet.getRow(1).values as unknown[]
    expect(headings.slice(1)).toEqual(Object.values(spreadsheetHeadings))
    const column = (key: keyof typeof spreadsheetHeadings) =>
      Object.keys(spreadsheetHeadings).indexOf(key) + 1
    expect(sheet.rowCount).toBe(records.length + 1)
    records.forEach((stored, i) => {
      const row = sheet.getRow(i + 2)
      for (const key of ['user_phone', 'user_group', 'contact_number', 'message'] as const) {
        if (i >= AS_TYPED.length) continue
        const cell = row.getCell(column(key))
        expect(cell.type, `${key} of row ${i + 2}`).toBe(ExcelJS.ValueType.String)
        expect(cell.value).toBe(stored.params[key])
      }
      expect(row.getCell(column('receivedAt')).value).toBe(stored.receivedAt)
      expect(row.getCell(column('id')).value).toBe(stored.id)
    })
    expect(sheet.getRow(records.length + 1).getCell(column('user_name')).value).toBe(
      'Ana\\u001b[8m',
    )
    // Columns sized to their text, within reason.
    expect(sheet.getColumn(column('user_phone')).width).toBeGreaterThanOrEqual(
      '=HYPERLINK("http://evil.example","x")'.length,
    )
    expect(sheet.getColumn(column('message')).width).toBeLessThanOrEqual(60)
  })

  it('the listing shows control characters instead of letting the terminal act on them', () => {
    const shown = formatRecord(
      record(1, '2025-01-01T00:00:00.000Z', {
        user_name: 'Ana\u001b[8m oculta',
        message: 'uno\r\ndos\u0007',
        user_group: 'al\u202erevés',
      }),
      1,
    )
    // eslint-disable-next-line no-control-regex
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(shown).toContain('Ana\\u001b[8m oculta')
    expect(shown).toContain('dos\\u0007')
    expect(shown).toContain('al\\u202erevés')
  })
})
