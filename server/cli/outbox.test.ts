import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spreadsheetHeadings, spreadsheetSheetName } from '../../src/contract/lead-server-text.js'
import { SQLITE_FILE, openLeadStore, type Channel, type LeadStore } from '../store/lead-store.js'
import { formatRecord } from './listing.js'
import { CSV_COLUMNS, csvRow } from './csv.js'
import type { DemoRequestRecord } from '../store/record.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { OUTBOX_CLI_JS } from '../../testing/server/compiled-server.js'
import { REPO_ROOT } from '../../testing/site.js'

const run = promisify(execFile)
let dir: string

const record = (
  n: number,
  receivedAt: string,
  params: Record<string, string>,
): DemoRequestRecord => ({
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

/** Opens the store the CLI will read (SQLite in `dataDir`, or PostgreSQL). */
const storeOf = (dataDir: string, databaseUrl?: string): Promise<LeadStore> =>
  openLeadStore({ dataDir, databaseUrl }, { maxBytes: 1024 ** 3, largestRecordBytes: 0 })

/** Stores `records` as the server would have (without deliveries). */
async function seed(dataDir: string, records: DemoRequestRecord[]): Promise<string> {
  await mkdir(dataDir, { recursive: true })
  const store = await storeOf(dataDir)
  await store.importRecords(records)
  await store.close()
  return join(dataDir, SQLITE_FILE)
}

beforeAll(async () => {
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
      `Todavía no hay solicitudes de demo guardadas (en ${join(dir, 'empty', SQLITE_FILE)}).`,
    )
  })

  it('lists the stored requests of DATA_DIR newest (last stored) first, with every param', async () => {
    const data = join(dir, 'data')
    const file = await seed(data, RECORDS)
    const { stdout } = await run(process.execPath, [OUTBOX_CLI_JS], {
      env: { ...process.env, DATA_DIR: data },
    })
    expect(stdout).toContain(
      `3 solicitudes de demo en ${file}, de la más reciente a la más antigua:`,
    )
    // Times in the sales team's zone (LEADS_TIME_ZONE, Mexico City by default).
    expect(stdout).toContain('#3  miércoles, 3 de septiembre de 2025, 04:00 (America/Mexico_City)')
    expect(stdout).toContain('Envío:              ninguno configurado: solo guardada')
    const order = ['Tercera', 'Segunda', 'Primera'].map((name) => stdout.indexOf(name))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    for (const text of [
      'c@x.mx',
      '555 123',
      'Grupo Sur',
      'Línea uno',
      'Línea dos',
      'Número de contacto:',
      '4821',
      'utm_source:',
      'google',
      'otoño',
    ]) {
      expect(stdout).toContain(text)
    }
  })

  it('formats a multi-line message aligned under its label', () => {
    const text = formatRecord(RECORDS[2] as DemoRequestRecord, 3)
    expect(text).toMatch(/ {2}Comentarios: +Línea uno\n {22}Línea dos/)
  })

  it('exports CSV for a spreadsheet: BOM, RFC 4180 quoting, attribution columns, oldest first', async () => {
    const data = join(dir, 'csv')
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
    const file = await seed(data, [...RECORDS, tricky])
    const { stdout, stderr } = await run(process.execPath, [OUTBOX_CLI_JS, '--csv'], {
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
    expect(stderr.trim()).toBe(`outbox: 4 solicitudes de demo exportadas de ${file}`)
  })

  it('neutralises every formula trigger, also after spaces, and quotes only what needs quoting', () => {
    const csvField = (value: string) => csvRow([value]).slice(0, -'\r\n'.length)
    expect(csvField('=1+1')).toBe("'=1+1")
    expect(csvField('+1')).toBe("'+1")
    expect(csvField('-1')).toBe("'-1")
    expect(csvField('@A1')).toBe("'@A1")
    expect(csvField('\t=1')).toBe("'\t=1")
    expect(csvField('\r=1')).toBe(`"'\r=1"`)
    // Spreadsheets skip leading spaces before they look for a formula.
    expect(csvField("  =cmd|' /C calc'!A0")).toBe("'  =cmd|' /C calc'!A0")
    expect(csvField(' +1')).toBe("' +1")
    expect(csvField('\u00a0@A1')).toBe("'\u00a0@A1")
    expect(csvField('\uFF1D1+1')).toBe("'\uFF1D1+1")
    expect(csvField('a=1')).toBe('a=1')
    expect(csvField('  a=1')).toBe('  a=1')
    expect(csvField('Peña')).toBe('Peña')
    expect(csvField('')).toBe('')
    expect(csvField('a,b')).toBe('"a,b"')
    // A spreadsheet set to Spanish splits a line on `;`: quoted, it stays one cell.
    expect(csvField('precios; mañana')).toBe('"precios; mañana"')
    expect(csvRow(['a;b', 'c', 'd"e'])).toBe('"a;b",c,"d""e"\r\n')
  })

  it("`npm run outbox -- --csv > file` writes a file that starts with the BOM, not npm's banner", async () => {
    const data = join(dir, 'npm')
    await seed(data, RECORDS)
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

  it('names each mistake on the command line in one line, exit code 2', async () => {
    const mistakes: [string[], string][] = [
      [['--resend'], 'a --resend le falta su valor'],
      [['--resend', '--csv'], 'a --resend le falta su valor'],
      [['--csv=si'], '--csv no lleva valor'],
      [['-x'], 'opción desconocida -x'],
      [['solicitudes.csv'], 'no sé qué hacer con «solicitudes.csv»: cada opción empieza por --'],
      [['--csv', '--json'], 'elige una sola de --csv y --json'],
      [['--yes'], '--yes solo acompaña a --erase'],
    ]
    await Promise.all(
      mistakes.map(async ([args, line]) => {
        const failed = run(process.execPath, [OUTBOX_CLI_JS, ...args], {
          env: { ...process.env, DATA_DIR: join(dir, 'empty') },
        })
        await expect(failed).rejects.toMatchObject({
          stderr: expect.stringContaining(`outbox: ${line}\n`),
        })
        await expect(failed).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringMatching(/^outbox: [^\n]+\nuso: /),
        })
      }),
    )
    // A value may also follow `=`, and -h is --help.
    const help = await run(process.execPath, [OUTBOX_CLI_JS, '-h'])
    expect(help.stdout).toMatch(/^uso: npm run outbox/)
    const resend = run(process.execPath, [OUTBOX_CLI_JS, '--resend=nada'], {
      env: { ...process.env, DATA_DIR: join(dir, 'empty') },
    })
    await expect(resend).rejects.toMatchObject({
      code: 1,
      stderr: 'outbox: todavía no hay solicitudes guardadas\n',
    })
  })

  it('refuses unknown options', async () => {
    const unknown = run(process.execPath, ['scripts/outbox.mjs', '--xls'], { cwd: REPO_ROOT })
    await expect(unknown).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/opción desconocida --xls/),
    })
  })

  // A fresh clone where only `npm run dev` ran: the requests it stored are listed all the same.
  it('compiles the server first when there is no server build, then lists', async () => {
    const fresh = join(dir, 'fresh-clone')
    for (const part of [
      'package.json',
      'tsconfig.base.json',
      'tsconfig.server.json',
      'scripts/outbox.mjs',
      'pipeline/typescript.mjs',
      'server',
      'src/contract',
      'src/config',
    ]) {
      await cp(join(REPO_ROOT, part), join(fresh, part), { recursive: true })
    }
    await symlink(join(REPO_ROOT, 'node_modules'), join(fresh, 'node_modules'))
    const data = join(dir, 'fresh-clone-data')
    await mkdir(data)
    const store = await openLeadStore(
      { dataDir: data },
      { maxBytes: 1024 ** 2, largestRecordBytes: 0 },
    )
    await store.append(RECORDS[0]!, ['email'])
    await store.close()

    const listed = await run(process.execPath, ['scripts/outbox.mjs', '--json'], {
      cwd: fresh,
      env: { ...process.env, DATA_DIR: data },
    })
    expect(listed.stderr).toMatch(/^outbox: no server build yet: compiling the server/)
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual([RECORDS[0]!.id])
    expect(existsSync(join(fresh, 'build/server/cli/outbox.js'))).toBe(true)
  }, 120_000)
})

describe("deliveries in the sales team's commands", () => {
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, [OUTBOX_CLI_JS, ...args], { env: { ...process.env, ...env } })

  async function twoRequests(store: LeadStore) {
    const [first, second] = RECORDS as [DemoRequestRecord, DemoRequestRecord]
    await store.append(first, ['email', 'webhook'])
    await store.append(second, ['email', 'webhook'])
    const ref = (id: string, channel: Channel) => ({
      kind: 'request' as const,
      requestId: id,
      channel,
    })
    await store.queue.markDelivered(ref(first.id, 'email'))
    await store.queue.markDelivered(ref(first.id, 'webhook'))
    await store.queue.markRetry(
      ref(second.id, 'email'),
      Date.parse('2025-09-02T10:05:00.000Z'),
      'SMTP 451: 4.3.0 Try again later',
    )
    await store.queue.markFailed(ref(second.id, 'webhook'), 'HTTP 410')
    return { first, second }
  }

  it("lists each channel's state, the dead letters, re-sends them and prints JSON Lines", async () => {
    const data = join(dir, 'states')
    await mkdir(data)
    const store = await storeOf(data)
    const { first, second } = await twoRequests(store)
    await store.close()
    const env = { DATA_DIR: data }

    const listing = (await cli([], env)).stdout
    expect(listing).toMatch(/Envío por correo: {3}entregado el \S+, \d+ de/)
    // Its retry was due long ago: it goes as soon as a server runs, not "el 2 de septiembre".
    expect(listing).toContain(
      'Envío por correo:   pendiente: próximo intento ya ' +
        '(1 intento fallido; SMTP 451: 4.3.0 Try again later)',
    )
    expect(listing).toContain('Envío por webhook:  fallido: HTTP 410 (tras 1 intento)')
    // With the webhook configured, the listing opens by saying a dead letter waits for a person.
    const withWebhook = {
      ...env,
      LEADS_WEBHOOK_URL: 'http://127.0.0.1:1/hooks',
      LEADS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }
    expect((await cli([], withWebhook)).stdout.split('\n')[0]).toBe(
      'Envío por webhook: entrega con normalidad. 1 envío falló para siempre y espera a que ' +
        'alguien lo reenvíe: npm run outbox -- --failed.',
    )

    const failed = (await cli(['--failed'], env)).stdout
    expect(failed).toContain(second.id)
    expect(failed).not.toContain(first.id)
    expect(failed).toContain('npm run outbox -- --resend ID')

    const json = (await cli(['--json'], env)).stdout
    const lines = json
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => line.id)).toEqual([first.id, second.id])
    expect(lines[0]).toMatchObject({ receivedAt: first.receivedAt, params: first.params })
    expect(lines[1]!.deliveries).toEqual([
      {
        channel: 'email',
        state: 'pending',
        attempts: 1,
        nextAttemptAt: '2025-09-02T10:05:00.000Z',
        lastError: 'SMTP 451: 4.3.0 Try again later',
        deliveredAt: null,
      },
      {
        channel: 'webhook',
        state: 'failed',
        attempts: 1,
        nextAttemptAt: null,
        lastError: 'HTTP 410',
        deliveredAt: null,
      },
    ])

    await expect(cli(['--resend', 'no-such-id'], env)).rejects.toMatchObject({ code: 1 })
    expect((await cli(['--resend', second.id], env)).stdout).toMatch(/^1 envío vuelve a la cola/)
    expect((await cli(['--resend-failed'], env)).stdout).toBe(
      'No había envíos fallidos que reenviar.\n',
    )
    const again = await storeOf(data)
    expect((await again.request(second.id))?.deliveries.map((d) => [d.state, d.attempts])).toEqual([
      ['pending', 1],
      ['pending', 0],
    ])
    await again.close()
  }, 120_000)

  it('opens with one line per channel: delivering, or failing since when, why, how many wait', async () => {
    const data = join(dir, 'channels')
    await mkdir(data)
    const store = await storeOf(data)
    await store.append(RECORDS[0]!, ['email', 'webhook'])
    const failedAt = Date.now()
    await store.channels.recordFault(
      'email',
      'SMTP 535: 5.7.8 Authentication credentials invalid',
      failedAt,
      () => 60 * 60_000,
    )
    const { nextProbeAt } = (await store.channels.states(['email'])).get('email')!
    await store.close()
    const env = {
      DATA_DIR: data,
      LEADS_TIME_ZONE: 'Europe/Madrid',
      SMTP_URL: 'smtp://avisos%40gaspre.mx:clave@127.0.0.1:1',
      LEADS_MAIL_TO: 'ventas@gaspre.mx',
      LEADS_MAIL_FROM: 'avisos@gaspre.mx',
      LEADS_WEBHOOK_URL: 'http://127.0.0.1:1/hooks',
      LEADS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }
    const when = (ms: number) =>
      new Intl.DateTimeFormat('es-MX', {
        timeZone: 'Europe/Madrid',
        dateStyle: 'full',
        timeStyle: 'short',
        hourCycle: 'h23',
      }).format(new Date(ms))
    const [mail, hook, blank] = (await cli([], env)).stdout.split('\n')
    expect(mail).toMatch(
      new RegExp(
        `^Envío por correo: FALLA desde el ${when(failedAt)} \\(SMTP 535: 5\\.7\\.8 Authentication credentials invalid\\); ` +
          'espera 1 solicitud, ninguna se pierde; próximo intento el .+\\.$',
      ),
    )
    expect(hook).toBe('Envío por webhook: entrega con normalidad (espera 1 solicitud).')
    expect(blank).toBe('')
    // The request's own mail waits for the channel's next try, an hour away: not "se envía ya".
    const listing = (await cli([], env)).stdout
    expect(listing).toContain(
      `Envío por correo:   pendiente: el envío por correo falla; se intenta de nuevo el ${when(nextProbeAt!)}\n`,
    )
    expect(listing).not.toContain('Envío por correo:   pendiente: se envía ya')
    expect(listing).toContain('Envío por webhook:  pendiente: se envía ya')
    // Without channels configured, the listing opens with the requests as before.
    expect((await cli([], { DATA_DIR: data })).stdout).toMatch(/^1 solicitud de demo en /)
  })

  it('reads PostgreSQL when DATABASE_URL is set, and imports a JSONL outbox into it once', async () => {
    const databaseUrl = await freshDatabase()
    const data = join(dir, 'pg')
    await mkdir(data)
    const outbox = join(data, 'outbox.jsonl')
    await writeFile(outbox, RECORDS.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const env = { DATA_DIR: data, DATABASE_URL: databaseUrl }
    const imported = await cli(['--import', outbox], env)
    expect(imported.stderr).toMatch(
      /^outbox: 3 de 3 solicitudes importadas de .*outbox\.jsonl a postgres:/,
    )
    expect((await cli(['--import', outbox], env)).stderr).toMatch(/^outbox: 0 de 3 solicitudes/)
    const json = (await cli(['--json'], env)).stdout.trimEnd().split('\n')
    expect(json.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(
      RECORDS.map((r) => r.id),
    )
    expect((await readFile(outbox, 'utf8')).split('\n')).toHaveLength(4) // kept as it was
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
      record(9, '2027-01-01T00:00:00.000Z', { user_name: 'Ana\u001b[8m', user_email: 'x' }),
    )
    await seed(data, records)
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
