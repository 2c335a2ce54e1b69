// The retention period, on SQLite and on PostgreSQL: at start the server erases an imported
// request older than LEADS_RETENTION_DAYS, keeps the recent ones and those whose delivery is
// still pending (until it ends), and no copy of an imported outbox.jsonl stays in DATA_DIR;
// `0` keeps everything and the start says so; two servers on one PostgreSQL erase once.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { openLeadStore, type Channel, type JobRef, type LeadStore } from '../store/lead-store.js'
import { importDataDirOutboxAtStart } from '../store/outbox-import.js'
import type { DemoRequestRecord } from '../store/record.js'
import { RetentionJob } from './retention.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { MAIN_JS } from '../../testing/server/compiled-server.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { storedRequests } from '../../testing/server/store.js'
import { startSite, type RunningSite } from '../../testing/site.js'
import { recordedLog } from '../../testing/server/recorded-log.js'

const KINDS = ['sqlite', 'postgres'] as const

/** A request's delivery on one channel, as the store's marks name it. */
const deliveryOf = (requestId: string, channel: Channel): JobRef => ({
  kind: 'request',
  requestId,
  channel,
})
const DAY_MS = 24 * 60 * 60 * 1000

const cleanups = undoneAfterEach()

const dist = fakeDistForThisFile()

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gaspre-retention-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

async function openStore(dataDir: string, databaseUrl?: string): Promise<LeadStore> {
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes: 1024 ** 3, largestRecordBytes: 0 },
  )
  cleanups.push(() => store.close())
  return store
}

let counter = 0
/** A request received `days` days ago, by a person named after `label`. */
const receivedDaysAgo = (days: number, label: string): DemoRequestRecord => ({
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  receivedAt: new Date(Date.now() - days * DAY_MS).toISOString(),
  serviceId: 'service_local',
  templateId: 'template_demo',
  params: {
    user_name: `Persona ${label}`,
    user_email: `${label}@correo.mx`,
    user_phone: '5512345678',
  },
})

const jsonl = (records: readonly DemoRequestRecord[]) =>
  records.map((record) => `${JSON.stringify(record)}\n`).join('')

/** A logger that keeps what it is told, as the server's would print it. */
function recordingLog() {
  const { stream, lines } = recordedLog()
  return { log: Fastify({ logger: { level: 'info', stream } }).log, lines }
}

const storedIds = async (store: LeadStore) => {
  const ids: string[] = []
  for await (const request of store.requests({ oldestFirst: true })) ids.push(request.id)
  return ids
}

/** Whether any file of `dir` holds `text`. */
async function anyFileHolds(dir: string, text: string): Promise<string[]> {
  const holding: string[] = []
  for (const name of await readdir(dir)) {
    if ((await readFile(join(dir, name))).includes(Buffer.from(text))) holding.push(name)
  }
  return holding
}

describe.each(KINDS)('retention on %s', (kind) => {
  it('erases an imported request older than the period at start; keeps recent and pending ones, then the pending one once delivered', async () => {
    const dataDir = await tempDir()
    const store = await openStore(dataDir, kind === 'postgres' ? await freshDatabase() : undefined)
    const oldImported = receivedDaysAgo(400, 'importada-antigua')
    const recentImported = receivedDaysAgo(10, 'importada-reciente')
    await writeFile(
      join(dataDir, 'outbox.jsonl'),
      `${jsonl([oldImported, recentImported])}{"torn":`,
    )
    // As the server's start does: the import, then the retention.
    const started = recordingLog()
    await importDataDirOutboxAtStart(store, dataDir, started.log)
    expect(started.lines.filter((line) => line.event === 'outbox-imported')).toMatchObject([
      { read: 2, imported: 2, unreadable: 1, removed: false },
    ])
    const oldPending = receivedDaysAgo(366, 'pendiente')
    const oldDelivered = receivedDaysAgo(366, 'entregada')
    const oldFailed = receivedDaysAgo(500, 'fallida')
    const recent = receivedDaysAgo(364, 'reciente')
    for (const record of [oldPending, oldDelivered, oldFailed, recent]) {
      await store.append(record, ['email', 'webhook'])
    }
    for (const channel of ['email', 'webhook'] as const) {
      await store.queue.markDelivered(deliveryOf(oldDelivered.id, channel))
      await store.queue.markFailed(deliveryOf(oldFailed.id, channel), 'HTTP 410')
    }
    await store.queue.markDelivered(deliveryOf(oldPending.id, 'email'))

    const { log, lines } = recordingLog()
    const job = new RetentionJob(store, { days: 365 })
    await job.start(log)
    cleanups.push(() => job.stop())

    expect(await storedIds(store)).toEqual([oldPending.id, recent.id, recentImported.id])
    expect(await store.erasure.erasures()).toEqual([
      { erasedAt: expect.any(String), rule: 'retention', requests: 3, deliveries: 4 },
    ])
    expect(lines.filter((line) => line.event === 'retention-erased')).toMatchObject([
      { requests: 3, deliveries: 4 },
    ])
    // The file keeps only its torn line, and the old request is in no file of DATA_DIR.
    expect(await readFile(join(dataDir, 'outbox.jsonl'), 'utf8')).toBe('{"torn":\n')
    expect(await anyFileHolds(dataDir, oldImported.params.user_email!)).toEqual([])

    // The pending delivery ends: the next run takes its request.
    await store.queue.markDelivered(deliveryOf(oldPending.id, 'webhook'))
    expect(await job.runOnce()).toEqual({ requests: 1, deliveries: 2 })
    expect(await storedIds(store)).toEqual([recent.id, recentImported.id])
  })

  it('an outbox.jsonl imported at start leaves DATA_DIR; its expired requests leave the store', async () => {
    const dataDir = await tempDir()
    const store = await openStore(dataDir, kind === 'postgres' ? await freshDatabase() : undefined)
    const expired = [receivedDaysAgo(40, 'vieja-uno'), receivedDaysAgo(31, 'vieja-dos')]
    await writeFile(join(dataDir, 'outbox.jsonl'), jsonl(expired))
    // The note an older server left beside the file it had imported.
    await writeFile(join(dataDir, '.outbox-imported.json'), '120:1700000000000:leads.sqlite\n')
    const started = recordingLog()
    await importDataDirOutboxAtStart(store, dataDir, started.log)
    expect(started.lines.filter((line) => line.event === 'outbox-imported')).toMatchObject([
      { read: 2, imported: 2, unreadable: 0, removed: true },
    ])
    expect(await readdir(dataDir)).not.toContain('outbox.jsonl')
    const run = await new RetentionJob(store, { days: 30 }).runOnce()
    expect(run).toEqual({ requests: 2, deliveries: 0 })
    expect(await readdir(dataDir)).not.toContain('.outbox-imported.json')
    for (const record of expired) {
      expect(await anyFileHolds(dataDir, record.params.user_name!)).toEqual([])
    }
    expect(await store.count()).toBe(0)
  })
})

describe('retention with several servers on one PostgreSQL', () => {
  it('erases each expired request once, with one record, when they run at the same moment', async () => {
    const databaseUrl = await freshDatabase()
    const [a, b] = [
      await openStore(await tempDir(), databaseUrl),
      await openStore(await tempDir(), databaseUrl),
    ]
    const expired = Array.from({ length: 30 }, (_, n) => receivedDaysAgo(400 + n, `vieja-${n}`))
    for (const record of expired) await a!.append(record, ['email'])
    for (const record of expired) await a!.queue.markDelivered(deliveryOf(record.id, 'email'))
    await a!.append(receivedDaysAgo(1, 'nueva'), ['email'])
    const jobs = [new RetentionJob(a!, { days: 365 }), new RetentionJob(b!, { days: 365 })]
    for (let round = 0; round < 3; round++) {
      await Promise.all(jobs.map((job) => job.runOnce()))
    }
    expect(await a!.erasure.erasures()).toEqual([
      { erasedAt: expect.any(String), rule: 'retention', requests: 30, deliveries: 30 },
    ])
    expect(await a!.count()).toBe(1)
  })

  it('while another server holds the job, this one erases nothing; after, it does', async () => {
    const databaseUrl = await freshDatabase()
    const store = await openStore(await tempDir(), databaseUrl)
    await store.importRecords([receivedDaysAgo(400, 'vieja')])
    const other = new pg.Client({ connectionString: databaseUrl })
    await other.connect()
    cleanups.push(() => other.end())
    await other.query('begin')
    await other.query(`select pg_advisory_xact_lock(hashtext('gaspre-lead-retention'))`)
    const job = new RetentionJob(store, { days: 365 })
    expect(await job.runOnce()).toEqual({ requests: null, deliveries: null })
    expect(await store.count()).toBe(1)
    await other.query('commit')
    expect(await job.runOnce()).toEqual({ requests: 1, deliveries: 0 })
  })
})

describe.each(KINDS)('the server on %s', (kind) => {
  const servers: RunningSite[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop()
  })

  const start = async (env: Record<string, string>): Promise<RunningSite> => {
    const server = await startSite({
      host: 'node',
      server: MAIN_JS,
      build: { dir: dist.dist },
      env,
    })
    servers.push(server)
    // The lines after "Listening on" may arrive in a later chunk. The start's line about the
    // period, not the log's: the retention run's log line names LEADS_RETENTION_DAYS too.
    await expect
      .poll(() =>
        server.lines.some((line) => /^(Requests older|LEADS_RETENTION_DAYS=0)/.test(line)),
      )
      .toBe(true)
    return server
  }

  it('at start erases the imported requests older than the period, and says it erases daily', async () => {
    const dataDir = await tempDir()
    const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
    const old = receivedDaysAgo(366, 'antigua')
    const recent = receivedDaysAgo(1, 'reciente')
    await writeFile(join(dataDir, 'outbox.jsonl'), jsonl([old, recent]))
    const server = await start({
      DATA_DIR: dataDir,
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    })
    expect(server.lines).toContain(
      'Requests older than 365 days are erased, at start and once a day (LEADS_RETENTION_DAYS)',
    )
    // The log's lines are written apart from the console's and may come after them.
    await expect
      .poll(() => server.lines.join('\n'))
      .toMatch(/"event":"retention-erased","requests":1,/)
    await server.stop()
    expect((await storedRequests({ dataDir, databaseUrl })).map((each) => each.id)).toEqual([
      recent.id,
    ])
    // Imported at start, the file is gone: its requests are in the store.
    expect(await readdir(dataDir)).not.toContain('outbox.jsonl')
  })

  it('with LEADS_RETENTION_DAYS=0 keeps every request, and says so', async () => {
    const dataDir = await tempDir()
    const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
    const records = [receivedDaysAgo(3000, 'muy-antigua'), receivedDaysAgo(1, 'reciente')]
    await writeFile(join(dataDir, 'outbox.jsonl'), jsonl(records))
    const server = await start({
      DATA_DIR: dataDir,
      LEADS_RETENTION_DAYS: '0',
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    })
    expect(server.lines).toContain(
      'LEADS_RETENTION_DAYS=0: demo requests are kept forever; none is erased for its age',
    )
    await server.stop()
    expect((await storedRequests({ dataDir, databaseUrl })).map((each) => each.id)).toEqual(
      records.map((each) => each.id),
    )
  })
})

describe('two servers starting at once on one PostgreSQL', () => {
  it('erase the expired requests once: one record', async () => {
    const databaseUrl = await freshDatabase()
    const seed = await openStore(await tempDir(), databaseUrl)
    await seed.importRecords(
      Array.from({ length: 20 }, (_, n) => receivedDaysAgo(400 + n, `s${n}`)),
    )
    const servers = await Promise.all(
      [0, 1].map(async () =>
        startSite({
          host: 'node',
          server: MAIN_JS,
          build: { dir: dist.dist },
          env: { DATA_DIR: await tempDir(), DATABASE_URL: databaseUrl },
        }),
      ),
    )
    cleanups.push(() => Promise.all(servers.map((server) => server.stop())))
    expect(await seed.erasure.erasures()).toEqual([
      { erasedAt: expect.any(String), rule: 'retention', requests: 20, deliveries: 0 },
    ])
    expect(await seed.count()).toBe(0)
  })
})
