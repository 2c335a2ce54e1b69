// Access and erasure on the store, on SQLite and on PostgreSQL: every request of a person
// written three ways and none of another's; an erasure removes those requests and their
// deliveries and nothing else, and records itself without personal data; on SQLite no file
// (the database, its WAL, its free pages) holds a byte of what was erased, even in a store
// written before erasures existed.
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { requestsOf } from './lead-privacy.js'
import { addonForThisNode } from '../store/sqlite-connections.js'
import {
  SQLITE_FILE,
  openLeadStore,
  type Channel,
  type JobRef,
  type LeadStore,
  type StoreOptions,
} from '../store/lead-store.js'
import type { DemoRequestRecord } from '../store/record.js'
import { ANA, OTHERS, request } from '../../testing/server/privacy-people.js'
import { personOf } from './person-match.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { storeMigratedTo } from '../../testing/server/old-store.js'
import { rawDatabase } from '../../testing/server/store.js'

/** A request's delivery on one channel, as the store's marks name it. */
const deliveryOf = (requestId: string, channel: Channel): JobRef => ({
  kind: 'request',
  requestId,
  channel,
})

const KINDS = ['sqlite', 'postgres'] as const
type Kind = (typeof KINDS)[number]
const OPTIONS: StoreOptions = { maxBytes: 1024 ** 3, largestRecordBytes: 0 }

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openStore(kind: Kind, dataDir?: string): Promise<LeadStore & { dataDir: string }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'gaspre-privacy-')))
  const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
  const store = await openLeadStore({ dataDir: dir, databaseUrl }, OPTIONS)
  if (dataDir === undefined) cleanups.push(() => rm(dir, { recursive: true, force: true }))
  cleanups.push(() => store.close())
  return Object.assign(store, { dataDir: dir })
}

const ids = (requests: readonly { id: string }[]) => requests.map((each) => each.id)

async function storeAll(store: LeadStore) {
  for (const each of [...ANA, ...OTHERS]) await store.append(each, ['email', 'webhook'])
  await store.queue.markDelivered(deliveryOf(ANA[0]!.id, 'email'))
  await store.queue.markFailed(deliveryOf(ANA[1]!.id, 'webhook'), 'HTTP 410')
}

async function deliveryRows(store: LeadStore) {
  const rows = await rawDatabase(store)
    .selectFrom('lead_jobs')
    .select(['request_id', 'channel'])
    .orderBy('request_id')
    .orderBy('channel')
    .execute()
  return rows.map((row) => `${row.request_id} ${row.channel}`)
}

describe.each(KINDS)('access and erasure on %s', (kind) => {
  it("finds every request of a person written three ways, and none of another's", async () => {
    const store = await openStore(kind)
    await storeAll(store)
    for (const phone of ['+52 55 1234 5678', '55 1234 5678', '5512345678']) {
      const found = await requestsOf(store, personOf(phone)!)
      expect(ids(found), phone).toEqual(ids(ANA))
      // With their deliveries, as the export prints them.
      expect(found[0]!.deliveries.map((d) => [d.channel, d.state])).toEqual([
        ['email', 'delivered'],
        ['webhook', 'pending'],
      ])
    }
    for (const email of ['ana@gasolinera.mx', ' ANA@Gasolinera.mx ']) {
      expect(ids(await requestsOf(store, personOf(email)!)), email).toEqual(ids(ANA.slice(0, 2)))
    }
    expect(ids(await requestsOf(store, personOf('juana@gasolinera.mx')!))).toEqual([OTHERS[0]!.id])
    expect(await requestsOf(store, personOf('55 1234 0000')!)).toEqual([])
  })

  it('erases those requests and their deliveries and nothing else, and records it without personal data', async () => {
    const store = await openStore(kind)
    await storeAll(store)
    const found = await requestsOf(store, personOf('55 1234 5678')!)
    const erased = await store.erasure.eraseRequests(ids(found))
    expect(erased).toEqual({ requests: 3, deliveries: 6 })
    const left = []
    for await (const each of store.requests({ oldestFirst: true })) left.push(each)
    expect(ids(left)).toEqual(ids(OTHERS))
    expect(await deliveryRows(store)).toEqual(
      OTHERS.flatMap((each) => [`${each.id} email`, `${each.id} webhook`]),
    )
    // Erasing them again finds nothing, and records nothing.
    expect(await store.erasure.eraseRequests(ids(found))).toEqual({ requests: 0, deliveries: 0 })

    const records = await store.erasure.erasures()
    expect(records).toEqual([
      { erasedAt: expect.any(String), rule: 'person-request', requests: 3, deliveries: 6 },
    ])
    // The table itself, every column of every row: nothing that names Ana or her requests.
    const { rows } = await sql<Record<string, unknown>>`select * from lead_erasures`.execute(
      rawDatabase(store),
    )
    expect(Object.keys(rows[0]!).sort()).toEqual([
      'deliveries',
      'erased_at',
      'id',
      'requests',
      'rule',
    ])
    const stored = JSON.stringify(rows)
    for (const each of ANA) {
      const { user_name, user_email, user_phone, user_group } = each.params
      for (const value of [each.id, user_name, user_email, user_phone, user_group]) {
        expect(stored).not.toContain(value!.trim())
      }
    }
    expect(stored).not.toMatch(/5678|ana|l[oó]pez/i)
  })
})

/** Every occurrence of `needle` in the SQLite files of `dataDir` (database, WAL, index). */
async function rawOccurrences(dataDir: string, needle: string): Promise<string[]> {
  const found: string[] = []
  for (const name of await readdir(dataDir)) {
    if (!name.startsWith(SQLITE_FILE)) continue
    const bytes = await readFile(join(dataDir, name))
    if (bytes.includes(Buffer.from(needle, 'utf8'))) found.push(`${needle} in ${name}`)
  }
  return found
}

/** What a request of the erased person leaves in the file if anything: every field's bytes. */
const SECRET = {
  user_name: 'Zacarías Quintanilla Bermúdez',
  user_email: 'zacarias.quintanilla@estaciones-privadas.mx',
  user_phone: '+52 81 4455 6677',
  user_group: 'Gasolineras Quintanilla del Norte',
  message: 'Nuestro margen por litro es confidencial: 1.87 pesos en la zona metropolitana.',
}
const SECRET_VALUES = Object.values(SECRET)

/** Many requests, the erased person's among them, so that the tables span many pages. */
const crowd = (count: number, every: number): DemoRequestRecord[] =>
  Array.from({ length: count }, (_, index) =>
    index % every === 3
      ? request(1000 + index, { ...SECRET, message: `${SECRET.message} (${index})` })
      : request(1000 + index, {
          user_name: `Visitante ${index}`,
          user_email: `v${index}@correo.mx`,
          user_phone: `+52 33 ${String(1000_0000 + index)}`,
          message: 'Quiero saber más. '.repeat(1 + (index % 40)),
        }),
  )

describe('SQLite keeps nothing erased readable', () => {
  it('in the database, its WAL or its free pages after an erasure', async () => {
    const store = await openStore('sqlite')
    const requests = crowd(300, 7)
    for (const each of requests) await store.append(each, ['email'])
    for (const each of requests.filter((_, index) => index % 5 === 0)) {
      await store.queue.markDelivered(
        deliveryOf(each.id, 'email'),
        `aceptado para ${each.params.user_email}`,
      )
    }
    const secret = requests.filter((each) => each.params.user_name === SECRET.user_name)
    const before = (
      await Promise.all(SECRET_VALUES.map((v) => rawOccurrences(store.dataDir, v)))
    ).flat()
    expect(before.length).toBeGreaterThan(0)

    const erased = await store.erasure.eraseRequests(
      ids(await requestsOf(store, personOf(SECRET.user_email)!)),
    )
    expect(erased.requests).toBe(secret.length)
    for (const value of [...SECRET_VALUES, ...ids(secret)]) {
      expect(await rawOccurrences(store.dataDir, value)).toEqual([])
    }
    // The others are all still there, readable.
    expect(await store.count()).toBe(requests.length - secret.length)
    expect(await rawOccurrences(store.dataDir, 'v299@correo.mx')).not.toEqual([])
  })

  it('in a store written before erasures existed, once it has been opened by this version', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-privacy-old-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    // The store as an older version left it: no record of erasures, and its rows written
    // without secure_delete. Its first rows then stay as stale bytes in the table's root page
    // once the root, grown too full, hands its rows to a new leaf and keeps only pointers.
    await (await storeMigratedTo({ dataDir }, '020-held-requests')).destroy()
    // The addon of this Node line (the server tests also run on the LTS line).
    const nativeBinding = addonForThisNode()
    const old = new SqliteDatabase(join(dataDir, SQLITE_FILE), {
      ...(nativeBinding && { nativeBinding }),
    })
    // Its migrations end before 030-erasures.
    old.exec('PRAGMA secure_delete = OFF')
    const insertRequest = old.prepare(
      'INSERT INTO lead_requests (id, received_at, service_id, template_id, params) VALUES (?, ?, ?, ?, ?)',
    )
    const requests = crowd(40, 7)
    old.transaction(() => {
      for (const each of requests) {
        insertRequest.run(
          each.id,
          each.receivedAt,
          each.serviceId,
          each.templateId,
          JSON.stringify(each.params),
        )
      }
    })()
    old.close()

    const store = await openStore('sqlite', dataDir)
    const erased = await store.erasure.eraseRequests(
      ids(await requestsOf(store, personOf(SECRET.user_phone)!)),
    )
    expect(erased.requests).toBe(requests.filter((_, index) => index % 7 === 3).length)
    for (const value of SECRET_VALUES) {
      expect(await rawOccurrences(dataDir, value)).toEqual([])
    }
  })
})
