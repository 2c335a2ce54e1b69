// The sales team's commands for a person's access or erasure request, on SQLite and on
// PostgreSQL, as `npm run outbox` runs them: --export finds every request of a person written
// three ways and none of another's (JSON, or a spreadsheet); --erase asks first (and refuses
// without a terminal unless --yes), then removes them and nothing else while the server runs
// and takes requests, so that a delivery pending at the time is never sent, and no SQLite file
// keeps a byte of them; --erasures lists the record, which names nobody.
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { buildTestApp } from '../../testing/server/app-on-temporary-store.js'
import { DemoRequests } from '../demo-requests/demo-requests.js'
import { DeliveryWorker } from '../delivery/worker.js'
import { LARGEST_RECORD_BYTES } from '../intake/demo-request-check.js'
import {
  SQLITE_FILE,
  openLeadStore,
  type Channel,
  type JobRef,
  type LeadStore,
  type StoredRequest,
} from '../store/lead-store.js'
import type { DemoRequestRecord } from '../store/record.js'
import { ANA, OTHERS } from '../../testing/server/privacy-people.js'
import { spreadsheetHeadings } from '../../src/contract/lead-server-text.js'
import { freePort } from '../../testing/free-port.mjs'
import { OUTBOX_CLI_JS } from '../../testing/server/compiled-server.js'
import { startSmtpPeer } from '../../testing/server/delivery-peers.js'
import { injectRequest, type Client } from '../../testing/server/inject.js'
import { DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { rawDatabase } from '../../testing/server/store.js'

/** A request's delivery on one channel, as the store's marks name it. */
const deliveryOf = (requestId: string, channel: Channel): JobRef => ({
  kind: 'request',
  requestId,
  channel,
})

const run = promisify(execFile)
const KINDS = ['sqlite', 'postgres'] as const
type Kind = (typeof KINDS)[number]

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

interface Target {
  store: LeadStore
  dataDir: string
  env: Record<string, string>
}

/** A store of `kind`, and the environment that points the CLI at it. */
async function target(kind: Kind): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-privacy-cli-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  cleanups.push(() => store.close())
  return {
    store,
    dataDir,
    env: { DATA_DIR: dataDir, ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }) },
  }
}

const cli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [OUTBOX_CLI_JS, ...args], { env: { ...process.env, ...env } })

const idsOf = (requests: readonly { id: string }[]) => requests.map((each) => each.id)

async function storedIds(store: LeadStore): Promise<string[]> {
  const ids: string[] = []
  for await (const each of store.requests({ oldestFirst: true })) ids.push(each.id)
  return ids
}

describe.each(KINDS)('a person in npm run outbox on %s', (kind) => {
  it("--export finds every request of a person written three ways and none of another's, as JSON and as a spreadsheet", async () => {
    const { store, env } = await target(kind)
    for (const each of [...ANA, ...OTHERS]) await store.append(each, ['email'])
    await store.queue.markDelivered(deliveryOf(ANA[0]!.id, 'email'))

    for (const phone of ['+52 55 1234 5678', '55 1234 5678', '5512345678']) {
      const { stdout, stderr } = await cli(['--export', phone], env)
      const exported = JSON.parse(stdout) as (StoredRequest & { deliveries: object[] })[]
      expect(idsOf(exported), phone).toEqual(idsOf(ANA))
      expect(exported[0]).toMatchObject({
        params: ANA[0]!.params,
        deliveries: [{ channel: 'email', state: 'delivered' }],
      })
      expect(stdout).not.toMatch(/juana|anabel|5679/i)
      expect(stderr).toContain(`outbox: 3 solicitudes de demo de ${phone} exportadas de `)
    }
    const byEmail = JSON.parse((await cli(['--export', ' ANA@gasolinera.mx '], env)).stdout)
    expect(idsOf(byEmail as DemoRequestRecord[])).toEqual(idsOf(ANA.slice(0, 2)))

    const xlsx = await run(
      process.execPath,
      [OUTBOX_CLI_JS, '--export', '55 1234 5678', '--xlsx'],
      { env: { ...process.env, ...env }, encoding: 'buffer' },
    )
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(xlsx.stdout as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    const idColumn = Object.keys(spreadsheetHeadings).indexOf('id') + 1
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) =>
      String(sheet.getRow(i + 2).getCell(idColumn).value),
    )
    expect(rows).toEqual(idsOf(ANA))
  })

  it('--erase --yes while the server runs: removes them and nothing else, a pending delivery is never sent, the record names nobody', async () => {
    const { store, dataDir, env } = await target(kind)
    // The mail server is down: every delivery waits, retried.
    const smtpPort = await freePort()
    const delivery = {
      email: {
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        to: ['ventas@gaspre.mx'],
        from: 'GASPRE <avisos@gaspre.mx>',
      },
      timeZone: 'America/Mexico_City',
      alertAfterMs: 600_000,
    }
    const worker = new DeliveryWorker(store, delivery, { pollMs: 50, firstBackoffMs: 50 })
    const app = buildTestApp({
      distDir: dist.dist,
      demoRequests: DemoRequests.delivering(store, delivery, worker),
      limits: { rateLimitPerMinute: 100_000, totalLimitPerMinute: 100_000 },
      logger: false,
    })
    // In-process: the store is what is shared with the erasing CLI, not a port.
    const server: Client = (path, options) => injectRequest(app, path, options)
    worker.start(app.log)
    let stopped: Promise<void> | null = null
    const stopServer = () =>
      (stopped ??= (async () => {
        await app.close()
        await worker.stop()
      })())
    cleanups.push(stopServer)

    const zacarias = {
      ...DEMO_PARAMS,
      user_name: 'Zacarías Quintanilla',
      user_email: 'zacarias.quintanilla@estaciones-privadas.mx',
      user_phone: '+52 81 4455 6677',
      message: 'Nuestro margen por litro es confidencial: 1.87 pesos.',
    }
    expect((await sendDemoRequest(server, zacarias)).status).toBe(200)
    expect(
      (await sendDemoRequest(server, { ...zacarias, user_phone: '81 4455 6677' })).status,
    ).toBe(200)
    expect(
      (await sendDemoRequest(server, { ...DEMO_PARAMS, user_name: 'Otra Persona' })).status,
    ).toBe(200)
    const pending = async () => {
      const all: StoredRequest[] = []
      for await (const each of store.requests({ oldestFirst: true })) all.push(each)
      return all
    }
    // The server has tried and knows the mail server is down: every delivery waits.
    const emailFailing = async () =>
      (
        await rawDatabase(store)
          .selectFrom('lead_channels')
          .select('failing_since')
          .where('channel', '=', 'email')
          .executeTakeFirst()
      )?.failing_since != null
    await expect.poll(emailFailing, { timeout: 20_000 }).toBe(true)
    expect(
      (await pending()).every((each) => each.deliveries.every((d) => d.state === 'pending')),
    ).toBe(true)
    const erased = idsOf(
      (await pending()).filter((each) => each.params.user_name === zacarias.user_name),
    )
    expect(erased).toHaveLength(2)

    // The erasure, while the server keeps storing other people's requests.
    const others = Array.from({ length: 10 }, (_, n) => ({
      ...DEMO_PARAMS,
      user_name: `Visitante ${n}`,
      user_email: `v${n}@correo.mx`,
    }))
    const [erasure, ...answers] = await Promise.all([
      cli(['--erase', '81 4455 6677', '--yes'], env),
      ...others.map((params) => sendDemoRequest(server, params)),
    ])
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
    expect(erasure.stdout).toContain(
      'Se borrarán para siempre 2 solicitudes de demo de 81 4455 6677, con sus envíos, de ',
    )
    expect(erasure.stdout).toContain('Borradas: 2 solicitudes de demo y 2 envíos de ')
    const left = await pending()
    expect(left.map((each) => each.params.user_name).sort()).toEqual(
      ['Otra Persona', ...others.map((each) => each.user_name)].sort(),
    )
    expect(left.some((each) => erased.includes(each.id))).toBe(false)

    // The mail server comes back: every request left is mailed, and no erased one ever is.
    const smtp = await startSmtpPeer(smtpPort)
    // The worker first: the mail server waits for its pooled connections to close.
    cleanups.push(async () => {
      await stopServer()
      await smtp.close()
    })
    // The channel's next probe and every delivery still stored are due now, rather than after
    // their backoff: had an erased request kept a delivery, it would be sent at once.
    await rawDatabase(store)
      .updateTable('lead_channels')
      .set({ next_probe_at: Date.now() })
      .execute()
    await rawDatabase(store)
      .updateTable('lead_jobs')
      .set({ next_attempt_at: Date.now() })
      .where('state', '=', 'pending')
      .execute()
    worker.kick()
    await expect
      .poll(
        async () => (await pending()).every((each) => each.deliveries[0]!.state !== 'pending'),
        {
          timeout: 30_000,
          interval: 50,
        },
      )
      .toBe(true)
    expect(smtp.mails).toHaveLength(11)
    for (const mail of smtp.mails) {
      expect(erased).not.toContain(mail.headers.get('x-gaspre-request-id'))
      expect(mail.text).not.toContain('Zacarías')
    }

    const log = (await cli(['--erasures'], env)).stdout
    expect(log).toMatch(
      /^Borrados en .*, del más reciente al más antiguo \(sin datos personales\):\n {2}\S.* \(America\/Mexico_City\) {2}por solicitud de la persona: 2 solicitudes de demo, 2 envíos\n$/,
    )
    for (const personal of ['Zacarías', 'zacarias', '4455', ...erased]) {
      expect(log).not.toContain(personal)
    }

    if (kind === 'sqlite') {
      // Read raw, with the server still running: the database, its WAL and its index.
      for (const name of (await readdir(dataDir)).filter((file) => file.startsWith(SQLITE_FILE))) {
        const bytes = await readFile(join(dataDir, name))
        for (const value of [
          zacarias.user_name,
          zacarias.user_email,
          '4455 6677',
          zacarias.message,
          ...erased,
        ]) {
          expect(bytes.includes(Buffer.from(value)), `${value} in ${name}`).toBe(false)
        }
      }
    }
  })
})

describe('npm run outbox -- --erase asks first', () => {
  /** The CLI in a terminal of its own (util-linux `script`), typing `answer` at its question. */
  const inTerminal = (args: string[], env: Record<string, string>, answer: string) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const command = [process.execPath, OUTBOX_CLI_JS, ...args]
        .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
        .join(' ')
      const child = execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { env: { ...process.env, ...env } },
        (error, stdout) => resolve({ code: Number(error?.code ?? 0), output: stdout }),
      )
      child.stdin!.end(`${answer}\n`)
    })

  it('refuses without a terminal and without --yes, and in a terminal erases only on «sí»', async () => {
    const { store, env } = await target('sqlite')
    for (const each of [...ANA, ...OTHERS]) await store.append(each)

    const refused = cli(['--erase', 'ana@gasolinera.mx'], env)
    await expect(refused).rejects.toMatchObject({
      code: 2,
      stdout: expect.stringContaining('Se borrarán para siempre 2 solicitudes de demo de '),
      stderr: expect.stringMatching(
        /\noutbox: no se borró nada: sin una terminal en la que confirmarlo, el borrado solo se hace con --yes \(npm run outbox -- --erase … --yes\)\n$/,
      ),
    })
    expect(await storedIds(store)).toEqual(idsOf([...ANA, ...OTHERS]))

    const no = await inTerminal(['--erase', 'ana@gasolinera.mx'], env, 'no')
    expect(no.code).toBe(1)
    expect(no.output).toContain('¿Las borro para siempre? Escribe «sí» para confirmar:')
    expect(no.output).toContain('No se borró nada.')
    expect(await storedIds(store)).toEqual(idsOf([...ANA, ...OTHERS]))

    const yes = await inTerminal(['--erase', 'ana@gasolinera.mx'], env, 'sí')
    expect(yes).toMatchObject({
      code: 0,
      output: expect.stringContaining('Borradas: 2 solicitudes de demo y 0 envíos de '),
    })
    expect(await storedIds(store)).toEqual(idsOf([ANA[2]!, ...OTHERS]))
  })

  it('--erase ID erases that request alone; text that names nobody is refused', async () => {
    const { store, env } = await target('sqlite')
    for (const each of [...ANA, ...OTHERS]) await store.append(each)
    // An id of digits and dashes is an id, not a phone number.
    await cli(['--erase', ANA[1]!.id, '--yes'], env)
    expect(await storedIds(store)).toEqual(idsOf([ANA[0]!, ANA[2]!, ...OTHERS]))
    await expect(cli(['--erase', 'Ana López', '--yes'], env)).rejects.toMatchObject({
      code: 2,
      stderr:
        'outbox: «Ana López» no es un correo electrónico, un teléfono ni el id de una solicitud guardada\n',
    })
    await expect(cli(['--yes'], env)).rejects.toMatchObject({ code: 2 })
    expect((await cli(['--erase', 'nadie@correo.mx', '--yes'], env)).stdout).toMatch(
      /^No hay ninguna solicitud de demo de nadie@correo\.mx en .*: nada que borrar\.\n$/,
    )
  })

  it('names the copies it cannot reach: the mail each recipient took, what the CRM received', async () => {
    const { store, env } = await target('sqlite')
    await store.append(ANA[0]!, ['email', 'webhook'])
    await store.append(ANA[1]!, ['email', 'webhook'])
    await store.queue.markDelivered(deliveryOf(ANA[0]!.id, 'email'))
    await store.queue.markDelivered(deliveryOf(ANA[0]!.id, 'webhook'))
    // The second went to one of the two recipients so far; its webhook never arrived.
    await store.queue.recordRecipients(deliveryOf(ANA[1]!.id, 'email'), ['ventas@gaspre.mx'], [])
    const { stdout } = await cli(['--erase', 'ana@gasolinera.mx', '--yes'], {
      ...env,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      LEADS_MAIL_TO: 'ventas@gaspre.mx, direccion@gaspre.mx',
      LEADS_MAIL_FROM: 'avisos@gaspre.mx',
      LEADS_WEBHOOK_URL: 'https://crm.example.com/hooks/leads?token=secreto',
      LEADS_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    })
    expect(stdout.slice(stdout.indexOf('Fuera de este servidor'))).toBe(
      [
        'Fuera de este servidor quedan copias que hay que borrar a mano (docs/sales-team.md):',
        '  - el correo «Solicitud de demo n.º 1: Ana López (Grupo Norte)» enviado a ' +
          `ventas@gaspre.mx, direccion@gaspre.mx (id ${ANA[0]!.id})`,
        `  - lo que recibió el CRM por webhook (https://crm.example.com) con el id ${ANA[0]!.id}`,
        '  - el correo «Solicitud de demo n.º 2: Ana López (Grupo Norte)» enviado a ' +
          `ventas@gaspre.mx (id ${ANA[1]!.id})`,
        '',
      ].join('\n'),
    )
  })

  it("before this version's first start, takes in the older outbox.jsonl, then erases from it too", async () => {
    const { store, dataDir, env } = await target('sqlite')
    const file = join(dataDir, 'outbox.jsonl')
    await writeFile(file, [...ANA, ...OTHERS].map((each) => `${JSON.stringify(each)}\n`).join(''))
    const { stdout, stderr } = await cli(['--erase', '5512345678', '--yes'], env)
    expect(stderr).toContain(`importadas de ${file}, que dejó un servidor anterior`)
    expect(stdout).toContain('Borradas: 3 solicitudes de demo y 0 envíos de ')
    expect(await store.count()).toBe(OTHERS.length)
    expect(await readdir(dataDir)).not.toContain('outbox.jsonl')
    for (const name of await readdir(dataDir)) {
      expect((await readFile(join(dataDir, name))).includes(Buffer.from('Ana López')), name).toBe(
        false,
      )
    }
  })
})
