// The store's promises, on SQLite and on PostgreSQL alike: 200 only once the request and its
// deliveries are committed, refused posts store nothing, the cap answers 507 with readiness
// failing first, a full disk (SQLite) answers 507, a JSONL outbox is imported once by its ids,
// two stores on one PostgreSQL migrate it safely when they start at once, and the migrations
// keep the names existing stores recorded them under.
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { buildTestApp } from '../../testing/server/app-on-temporary-store.js'
import { DemoRequests } from '../demo-requests/demo-requests.js'
import { LARGEST_RECORD_BYTES } from '../intake/demo-request-check.js'
import { openLeadStore, type Channel, type LeadStore, type StoreOptions } from './lead-store.js'
import { importOutboxFile } from './outbox-import.js'
import { newRecord } from './record.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { injectRequest, type Client } from '../../testing/server/inject.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { rawDatabase } from '../../testing/server/store.js'

const KINDS = ['sqlite', 'postgres'] as const
type Kind = (typeof KINDS)[number]

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

const OPTIONS: StoreOptions = { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES }

async function openStore(
  kind: Kind,
  options: Partial<StoreOptions> = {},
  target: { dataDir?: string; databaseUrl?: string } = {},
): Promise<{ store: LeadStore; dataDir: string; databaseUrl: string | undefined }> {
  const dataDir = target.dataDir ?? (await mkdtemp(join(tmpdir(), 'gaspre-store-')))
  const databaseUrl =
    kind === 'postgres' ? (target.databaseUrl ?? (await freshDatabase())) : undefined
  const store = await openLeadStore({ dataDir, databaseUrl }, { ...OPTIONS, ...options })
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  cleanups.push(() => store.close())
  return { store, dataDir, databaseUrl }
}

async function startApp(
  store: LeadStore,
  dataDir: string,
  channels: Channel[] = [],
): Promise<{ client: Client }> {
  // Pending deliveries, no worker: the test reads them from the store.
  const demoRequests = new DemoRequests({ store, channels, worker: null, alertAfterMs: 600_000 })
  const app = buildTestApp({
    distDir: dist.dist,
    demoRequests,
    limits: { rateLimitPerMinute: 100_000, totalLimitPerMinute: 100_000 },
    logger: false,
  })
  cleanups.push(() => app.close())
  return { client: (path, options) => injectRequest(app, path, options) }
}

const all = async (store: LeadStore) => {
  const requests = []
  for await (const request of store.requests({ oldestFirst: true })) requests.push(request)
  return requests
}

describe.each(KINDS)('the store on %s', (kind) => {
  it('answers 200 once the request and one pending delivery per channel are stored', async () => {
    const { store, dataDir } = await openStore(kind)
    const { client } = await startApp(store, dataDir, ['email', 'webhook'])
    const params = { ...DEMO_PARAMS, message: 'Quiero una demo.\nGracias', contact_number: '48213' }
    const res = await sendDemoRequest(client, params)
    expect(res.status).toBe(200)
    const [stored, ...more] = await all(store)
    expect(more).toEqual([])
    expect(stored!.params).toEqual(params)
    expect(stored!.deliveries.map((d) => [d.channel, d.state, d.attempts])).toEqual([
      ['email', 'pending', 0],
      ['webhook', 'pending', 0],
    ])
    expect(await store.request(stored!.id)).toEqual(stored)
  })

  it('stores nothing for a refused post: another site, the bot trap, a bad field', async () => {
    const { store, dataDir } = await openStore(kind)
    const { client } = await startApp(store, dataDir, ['email'])
    const crossSite = await sendDemoRequest(client, DEMO_PARAMS, {
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
    expect((await sendDemoRequest(client, { ...DEMO_PARAMS, website: 'spam' })).status).toBe(200)
    expect((await sendDemoRequest(client, { ...DEMO_PARAMS, user_name: ' ' })).status).toBe(400)
    expect(await store.count()).toBe(0)
  })

  it('a store that reaches its cap answers 507, and readiness fails before the first 507', async () => {
    const probe = await openStore(kind)
    const base = await probe.store.bytes()
    // Room for a handful of requests past the empty schema.
    const { store, dataDir } = await openStore(kind, {
      maxBytes: base + LARGEST_RECORD_BYTES + 8 * 8192,
    })
    const { client } = await startApp(store, dataDir)
    let notReadySeen = false
    let accepted = 0
    let refused = 0
    for (let i = 0; i < 400 && refused === 0; i++) {
      if ((await client('/readyz')).status === 503) notReadySeen = true
      const res = await sendDemoRequest(client, {
        ...DEMO_PARAMS,
        message: `${i} ${'relleno '.repeat(100)}`,
      })
      if (res.status === 200) accepted++
      else {
        expect(res.status).toBe(507)
        expect(res.text).toBe(
          'The message could not be stored: the store is full. Please try again later.',
        )
        refused++
        expect(notReadySeen).toBe(true)
      }
    }
    expect(refused).toBe(1)
    expect(accepted).toBeGreaterThan(0)
    expect(await store.count()).toBe(accepted)
    expect((await client('/readyz')).status).toBe(503)
  })

  it('records its migrations under the names stores made by earlier versions hold', async () => {
    const { store } = await openStore(kind)
    const applied = sql<{ name: string }>`select name from kysely_migration order by name`
    const { rows } = await applied.execute(rawDatabase(store))
    // A renamed migration would run again on every store in use, or refuse to start.
    expect(rows.map((row) => row.name)).toEqual([
      '001-requests-and-deliveries',
      '002-probe',
      '003-channel-health',
      '020-held-requests',
      '030-erasures',
      '040-whatsapp',
      '050-one-job-queue',
      '060-idempotency-keys',
      '070-faults-and-escalations',
      '080-listing-order',
      '090-booking',
    ])
  })

  it('imports a JSONL outbox by its ids: twice imported, stored once; torn lines counted', async () => {
    const { store, dataDir } = await openStore(kind)
    const records = [1, 2, 3].map((n) => ({
      ...newRecord('service_local', 'template_demo', { ...DEMO_PARAMS, contact_number: `${n}` }),
      receivedAt: `2026-01-0${n}T10:00:00.000Z`,
    }))
    const file = join(dataDir, 'outbox.jsonl')
    await writeFile(
      file,
      `${records.map((record) => JSON.stringify(record)).join('\n')}\n{"torn":\n`,
    )
    expect(await importOutboxFile(store, file)).toEqual({ read: 3, imported: 3, unreadable: 1 })
    expect(await importOutboxFile(store, file)).toEqual({ read: 3, imported: 0, unreadable: 1 })
    const stored = await all(store)
    expect(
      stored.map(({ id, receivedAt, serviceId, templateId, params }) => ({
        id,
        receivedAt,
        serviceId,
        templateId,
        params,
      })),
    ).toEqual(records)
    expect(await store.count()).toBe(3)
  })
})

/**
 * Sends requests until the store's small disk is full: the one that does not fit is answered
 * 507 and readiness fails, and every stored request is whole. Then room is made (the disk grows
 * to `roomy`): ready again, and stored again. How many were stored before the disk was full.
 */
async function fillsUpAndRecovers(
  store: LeadStore,
  dataDir: string,
  mount: string,
  roomy: string,
): Promise<number> {
  const { client } = await startApp(store, dataDir, ['email'])
  let accepted = 0
  let res = await sendDemoRequest(client)
  for (let i = 0; i < 2000 && res.status === 200; i++) {
    accepted++
    res = await sendDemoRequest(client, { ...DEMO_PARAMS, message: 'x'.repeat(900) + i })
  }
  expect(res.status).toBe(507)
  expect(res.text).toBe(
    'The message could not be stored: the server is out of disk space. Please try again later.',
  )
  expect((await client('/readyz')).status).toBe(503)
  const stored = await all(store)
  expect(stored).toHaveLength(accepted)
  expect(stored.every((s) => s.deliveries.length === 1)).toBe(true)
  execFileSync('mount', ['-o', `remount,size=${roomy}`, mount])
  expect((await client('/readyz')).status).toBe(200)
  expect((await sendDemoRequest(client)).status).toBe(200)
  return accepted
}

describe('SQLite', () => {
  it.skipIf(process.getuid?.() !== 0)(
    'a disk that fills answers 507 (out of disk space), stores nothing partial, and recovers',
    async () => {
      const mount = await mkdtemp(join(tmpdir(), 'gaspre-small-disk-'))
      // Room for the migrated store (090 added three tables) and a few requests, not 2,000.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=600k', 'tmpfs', mount])
      cleanups.push(async () => {
        execFileSync('umount', [mount])
        await rm(mount, { recursive: true, force: true })
      })
      const dataDir = join(mount, 'data')
      await mkdir(dataDir)
      // Readiness on free space is switched off: this is the disk failing under a write.
      const { store } = await openStore('sqlite', { freeBytes: async () => 1024 ** 3 }, { dataDir })
      const accepted = await fillsUpAndRecovers(store, dataDir, mount, '4m')
      expect(await store.count()).toBe(accepted + 1)
    },
  )

  it('readiness fails while the disk has less free space than a request needs', async () => {
    let free = 1024 ** 3
    const { store, dataDir } = await openStore('sqlite', { freeBytes: async () => free })
    const { client } = await startApp(store, dataDir)
    expect((await client('/readyz')).status).toBe(200)
    free = 1000
    expect((await client('/readyz')).status).toBe(503)
    free = 1024 ** 3
    expect((await client('/readyz')).status).toBe(200)
  })

  it('a DATA_DIR that is a file is named at open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gaspre-file-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    await writeFile(join(dir, 'file'), '')
    await expect(openLeadStore({ dataDir: join(dir, 'file') }, OPTIONS)).rejects.toThrow(
      /^DATA_DIR .*file cannot hold the demo requests/,
    )
  })
})

describe('PostgreSQL', () => {
  it('two stores opening an empty database at once both migrate it and share it', async () => {
    const databaseUrl = await freshDatabase()
    const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-store-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const [a, b] = await Promise.all(
      [0, 1].map(() => openLeadStore({ dataDir, databaseUrl }, OPTIONS)),
    )
    cleanups.push(
      () => a!.close(),
      () => b!.close(),
    )
    await a!.append(newRecord('s', 't', DEMO_PARAMS), ['email'])
    await b!.append(newRecord('s', 't', DEMO_PARAMS), ['email'])
    expect(await a!.count()).toBe(2)
    // Each due delivery is taken by one of them.
    const [claimedA, claimedB] = await Promise.all([
      a!.queue.claim('email', 10, 60_000),
      b!.queue.claim('email', 10, 60_000),
    ])
    expect(claimedA.length + claimedB.length).toBe(2)
  })

  it.skipIf(process.getuid?.() !== 0)(
    'a disk that fills answers 507 (out of disk space), readiness fails until there is room',
    async () => {
      // The tables in a tablespace on a small disk of their own.
      const mount = await mkdtemp(join(tmpdir(), 'gaspre-pg-disk-'))
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=600k', 'tmpfs', mount])
      execFileSync('chown', ['postgres:postgres', mount])
      const databaseUrl = await freshDatabase()
      const space = `small_${Date.now()}`
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`create tablespace ${space} location '${mount}'`)
      await admin.query(
        `alter database ${new URL(databaseUrl).pathname.slice(1)} set default_tablespace = ${space}`,
      )
      await admin.end()
      cleanups.push(async () => {
        // The database and the tablespace go before their disk, or PostgreSQL's next
        // checkpoint would look for their files.
        const cleanup = new pg.Client({ connectionString: inject('postgresUrl') })
        await cleanup.connect()
        await cleanup.query(`drop database ${new URL(databaseUrl).pathname.slice(1)} with (force)`)
        await cleanup.query(`drop tablespace ${space}`)
        await cleanup.end()
        execFileSync('umount', [mount])
        await rm(mount, { recursive: true, force: true })
      })
      const { store, dataDir } = await openStore('postgres', {}, { databaseUrl })
      await fillsUpAndRecovers(store, dataDir, mount, '8m')
    },
  )

  it('an unreachable DATABASE_URL is named at open, without its password', async () => {
    await expect(
      openLeadStore(
        { dataDir: tmpdir(), databaseUrl: 'postgres://ventas:secreto@127.0.0.1:1/leads' },
        OPTIONS,
      ),
    ).rejects.toThrow(
      /^DATABASE_URL postgres:\/\/ventas:\*\*\*@127\.0\.0\.1:1\/leads cannot be reached/,
    )
  })
})
