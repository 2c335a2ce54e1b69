// The lead server's store: every demo request, and one delivery per configured channel, in a
// database. SQLite in DATA_DIR by default (WAL, full synchronous commits: a request is on disk
// when its transaction commits), PostgreSQL when DATABASE_URL is set (several servers share it).
// One schema for both, made by versioned migrations (Kysely's migrator) at start; every query
// goes through Kysely's builder. A request and its deliveries are written in one transaction
// (the transactional outbox): a request is never stored without the deliveries that carry it to
// people, nor the reverse.
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { statfs } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Migration,
  type MigrationProvider,
} from 'kysely'
import pg from 'pg'
import { erasuresMigration } from './erasure-log.js'
import { MIN_FREE_BYTES, OutboxError, type OutboxRecord, type Readiness } from './outbox.js'

export const SQLITE_FILE = 'leads.sqlite'

/**
 * better-sqlite3's addon for this Node's ABI when one was built beside the default one (in
 * lib/binding/node-v<ABI>-<platform>-<arch>/, as the server tests on the LTS line build it);
 * undefined for the one `npm ci` built (build/Release).
 */
function addonForThisNode(): string | undefined {
  const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'))
  const tag = `node-v${process.versions.modules}-${process.platform}-${process.arch}`
  const addon = join(root, 'lib', 'binding', tag, 'better_sqlite3.node')
  return existsSync(addon) ? addon : undefined
}

/**
 * better-sqlite3 12's databases and statements are node::ObjectWrap objects, and since Node
 * 24.19 the garbage collector aborts the whole process when it finalizes one outside a
 * JavaScript context, as an idle-time collection does (nodejs/node#65446): a server that
 * prepared a statement per query, as Kysely's dialect does, died under the next flood of garbage.
 * (better-sqlite3 13 moves to Node-API, but does not run on Node 20.) So none of ours ever
 * becomes garbage: each database is kept for the life of the process, and each SQL text is
 * prepared once on it and kept. Their number is bounded by the queries this file makes.
 */
const KEPT_FOR_THE_PROCESS: SqliteDatabase.Database[] = []

function openSqlite(file: string): SqliteDatabase.Database {
  const nativeBinding = addonForThisNode()
  const sqlite = new SqliteDatabase(file, {
    timeout: 5_000,
    ...(nativeBinding && { nativeBinding }),
  })
  KEPT_FOR_THE_PROCESS.push(sqlite)
  const prepared = new Map<string, SqliteDatabase.Statement>()
  const prepare = sqlite.prepare.bind(sqlite)
  sqlite.prepare = ((source: string) => {
    let statement = prepared.get(source)
    if (statement === undefined) {
      statement = prepare(source)
      prepared.set(source, statement)
    }
    return statement
  }) as typeof sqlite.prepare
  return sqlite
}

/** A pragma's value, through a kept statement (better-sqlite3's pragma() makes a new one). */
const pragmaValue = (sqlite: SqliteDatabase.Database, name: string): number =>
  Number(Object.values(sqlite.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0])

/** The channels a request is delivered through. */
export const CHANNELS = ['email', 'webhook'] as const
export type Channel = (typeof CHANNELS)[number]

/** How long a delivery is retried before it is a dead letter: three days. */
const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000

export type DeliveryState = 'pending' | 'delivered' | 'failed'

interface RequestsTable {
  id: string
  received_at: string
  service_id: string
  template_id: string
  /** The template params as a JSON object of strings. */
  params: string
}

interface DeliveriesTable {
  request_id: string
  channel: Channel
  state: DeliveryState
  attempts: number
  /** Milliseconds since the epoch; bigint columns (PostgreSQL returns them as text). */
  next_attempt_at: number | string
  /** Past this (ms since the epoch) a delivery that still fails is a dead letter. */
  retry_until: number | string
  /** A worker holds the delivery until then; null when nobody does. */
  locked_until: number | string | null
  last_error: string | null
  delivered_at: string | null
}

interface Database {
  lead_requests: RequestsTable
  lead_deliveries: DeliveriesTable
  /** Where readiness writes a probe after a failed write; never holds a request. */
  lead_probe: { id: string; data: string }
}

/** One delivery of one request, as the worker and the sales team's commands see it. */
export interface Delivery {
  requestId: string
  channel: Channel
  state: DeliveryState
  attempts: number
  nextAttemptAt: number
  retryUntil: number
  lastError: string | null
  deliveredAt: string | null
}

export interface StoredRequest extends OutboxRecord {
  deliveries: Delivery[]
}

/** Versioned migrations: append new ones, never edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '001-requests-and-deliveries': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lead_requests')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('received_at', 'text', (column) => column.notNull())
        .addColumn('service_id', 'text', (column) => column.notNull())
        .addColumn('template_id', 'text', (column) => column.notNull())
        .addColumn('params', 'text', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('lead_requests_received_at')
        .on('lead_requests')
        .columns(['received_at', 'id'])
        .execute()
      await db.schema
        .createTable('lead_deliveries')
        .addColumn('request_id', 'text', (column) =>
          column.notNull().references('lead_requests.id').onDelete('cascade'),
        )
        .addColumn('channel', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
        .addColumn('retry_until', 'bigint', (column) => column.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('delivered_at', 'text')
        .addPrimaryKeyConstraint('lead_deliveries_pk', ['request_id', 'channel'])
        .execute()
      await db.schema
        .createIndex('lead_deliveries_due')
        .on('lead_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute()
    },
  },
}

MIGRATIONS['002-probe'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_probe')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('data', 'text', (column) => column.notNull())
      .execute()
  },
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

// The record of erasures, in a module of its own (erasure-log.ts); the migrator sorts by name.
MIGRATIONS['010-erasures'] = erasuresMigration

/** A store that cannot be opened: the operator's to mend (main.ts prints the line, exits 1). */
export class StoreError extends Error {
  override name = 'StoreError'
}

/** @internal its tests use it too */
export interface StoreOptions {
  /** Stores past this many bytes are refused ('full', 507). */
  maxBytes: number
  /** The largest request: readiness fails as soon as one would not fit. */
  largestRecordBytes: number
  /** Bytes free on the disk holding `dir` (SQLite only): a seam for tests. */
  freeBytes?: (dir: string) => Promise<number>
}

const toDelivery = (row: DeliveriesTable): Delivery => ({
  requestId: row.request_id,
  channel: row.channel,
  state: row.state,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
  retryUntil: Number(row.retry_until),
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
})

const toRecord = (row: RequestsTable): OutboxRecord => ({
  id: row.id,
  receivedAt: row.received_at,
  serviceId: row.service_id,
  templateId: row.template_id,
  params: JSON.parse(row.params) as Record<string, string>,
})

const fromRecord = (record: OutboxRecord): RequestsTable => ({
  id: record.id,
  received_at: record.receivedAt,
  service_id: record.serviceId,
  template_id: record.templateId,
  params: JSON.stringify(record.params),
})

const defaultFreeBytes = async (dir: string): Promise<number> => {
  const stats = await statfs(dir)
  return stats.bavail * stats.bsize
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** What both stores share: every query, through Kysely. */
export abstract class LeadStore {
  abstract readonly kind: 'sqlite' | 'postgres'
  /** Where the requests are, for people: a file path or a database without its password. */
  abstract readonly location: string
  protected failure: string | null = null
  private wasReady = true
  private onReadinessChange: (state: Readiness) => void = () => undefined

  protected constructor(
    readonly db: Kysely<Database>,
    protected readonly options: StoreOptions,
  ) {}

  /**
   * After a write failed: whether a request of the largest size would be stored now, written
   * and rolled back. Null when it would; why not otherwise.
   */
  protected async probe(): Promise<string | null> {
    const rolledBack = new Error('probe rolled back')
    try {
      await this.transact(async (trx) => {
        await trx
          .insertInto('lead_probe')
          .values({ id: randomUUID(), data: 'x'.repeat(this.options.largestRecordBytes) })
          .execute()
        throw rolledBack
      })
    } catch (error) {
      if (error !== rolledBack) return `a probe write failed: ${message(error)}`
    }
    return null
  }

  /**
   * Runs `work` in one transaction: all of it is committed, or none.
   * @internal the erasures (lead-privacy.ts) run in it too
   */
  transact<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work)
  }

  /** Applies the migrations this version knows and the database lacks. */
  async migrate(): Promise<void> {
    const { error, results } = await new Migrator({ db: this.db, provider }).migrateToLatest()
    if (error !== undefined) {
      const failed = results?.find((result) => result.status === 'Error')?.migrationName
      throw new StoreError(
        `${this.setting} ${this.location}: migration ${failed ?? ''} failed: ${message(error)}`,
      )
    }
  }

  /** The variable an operator mends when the store cannot be used. */
  protected abstract readonly setting: 'DATA_DIR' | 'DATABASE_URL'

  /** Bytes the store holds now, as its cap counts them. */
  protected abstract usedBytes(): Promise<number>
  /** Why the disk cannot take the next request; null when it can. */
  protected abstract diskProblem(): Promise<string | null>
  /** Turns a driver error into the failure the stand-in answers with. */
  protected abstract asOutboxError(error: unknown, used: number): OutboxError

  /**
   * Stores the request and one pending delivery per channel in one transaction; resolves once
   * it is committed. Rejects with an OutboxError (and stores nothing) when it is not.
   * `inserted` is false when a request with this id was already there (an import run again).
   */
  async append(record: OutboxRecord, channels: readonly Channel[] = []): Promise<boolean> {
    const row = fromRecord(record)
    let used = 0
    try {
      used = await this.usedBytes()
      const needed = Buffer.byteLength(JSON.stringify(row))
      if (used + needed > this.options.maxBytes) {
        throw new OutboxError(
          'full',
          `the store holds ${used} bytes and this request needs about ${needed} more, past ` +
            `its limit of ${this.options.maxBytes} bytes (OUTBOX_MAX_BYTES)`,
        )
      }
      const inserted = await this.transact(async (trx) => {
        const result = await trx
          .insertInto('lead_requests')
          .values(row)
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst()
        if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false
        if (channels.length > 0) {
          const now = Date.now()
          await trx
            .insertInto('lead_deliveries')
            .values(
              channels.map((channel) => ({
                request_id: record.id,
                channel,
                state: 'pending' as const,
                attempts: 0,
                next_attempt_at: now,
                retry_until: now + RETRY_FOR_MS,
                locked_until: null,
                last_error: null,
                delivered_at: null,
              })),
            )
            .execute()
        }
        return true
      })
      this.failure = null
      return inserted
    } catch (error) {
      const failure = error instanceof OutboxError ? error : this.asOutboxError(error, used)
      if (failure.failure !== 'full') this.failure = failure.message
      throw failure
    } finally {
      this.report(await this.check())
    }
  }

  /** Bytes the store holds now, as OUTBOX_MAX_BYTES counts them. */
  bytes(): Promise<number> {
    return this.usedBytes()
  }

  /** Tells `listener` when the store turns ready or not ready, once per change. */
  watchReadiness(listener: (state: Readiness) => void): void {
    this.onReadinessChange = listener
  }

  /** Whether a request of the largest size would be stored now. */
  async readiness(): Promise<Readiness> {
    return this.report(await this.check())
  }

  private async check(): Promise<Readiness> {
    try {
      const used = await this.usedBytes()
      const needed = this.options.largestRecordBytes
      if (used + needed > this.options.maxBytes) {
        return {
          ready: false,
          reason:
            `the store is full: it holds ${used} of ${this.options.maxBytes} bytes ` +
            `(OUTBOX_MAX_BYTES) and a request can take ${needed}`,
        }
      }
      const disk = await this.diskProblem()
      if (disk !== null) return { ready: false, reason: disk }
      this.failure = null
      return { ready: true }
    } catch (error) {
      return { ready: false, reason: `the store cannot be read: ${message(error)}` }
    }
  }

  private report(state: Readiness): Readiness {
    if (state.ready !== this.wasReady) {
      this.wasReady = state.ready
      this.onReadinessChange(state)
    }
    return state
  }

  /** Requests with their deliveries, newest first (oldest first with `oldestFirst`), in pages. */
  async *requests(
    filter: { oldestFirst?: boolean; failedOnly?: boolean } = {},
    pageSize = 500,
  ): AsyncGenerator<StoredRequest> {
    const direction = filter.oldestFirst === true ? 'asc' : 'desc'
    let after: { receivedAt: string; id: string } | null = null
    for (;;) {
      let query = this.db
        .selectFrom('lead_requests')
        .selectAll()
        .orderBy('received_at', direction)
        .orderBy('id', direction)
        .limit(pageSize)
      if (filter.failedOnly === true) {
        query = query.where('id', 'in', (sub) =>
          sub.selectFrom('lead_deliveries').select('request_id').where('state', '=', 'failed'),
        )
      }
      if (after !== null) {
        const { receivedAt, id } = after
        const beyond = direction === 'asc' ? '>' : '<'
        query = query.where((eb) =>
          eb.or([
            eb('received_at', beyond, receivedAt),
            eb.and([eb('received_at', '=', receivedAt), eb('id', beyond, id)]),
          ]),
        )
      }
      const rows = await query.execute()
      if (rows.length === 0) return
      const deliveries = await this.db
        .selectFrom('lead_deliveries')
        .selectAll()
        .where(
          'request_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('channel')
        .execute()
      for (const row of rows) {
        yield {
          ...toRecord(row),
          deliveries: deliveries.filter((d) => d.request_id === row.id).map(toDelivery),
        }
      }
      const last = rows[rows.length - 1]!
      after = { receivedAt: last.received_at, id: last.id }
      if (rows.length < pageSize) return
    }
  }

  /**
   * Stores requests kept elsewhere (an outbox.jsonl) in one transaction, without deliveries:
   * they were handled before. A request whose id is already stored is left as it is.
   * Returns how many were new.
   */
  async importRecords(records: readonly OutboxRecord[]): Promise<number> {
    if (records.length === 0) return 0
    return this.transact(async (trx) => {
      let inserted = 0
      for (const record of records) {
        const result = await trx
          .insertInto('lead_requests')
          .values(fromRecord(record))
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst()
        inserted += Number(result.numInsertedOrUpdatedRows ?? 0)
      }
      return inserted
    })
  }

  async count(): Promise<number> {
    const { count } = await this.db
      .selectFrom('lead_requests')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow()
    return Number(count)
  }

  async request(id: string): Promise<StoredRequest | null> {
    const row = await this.db
      .selectFrom('lead_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (row === undefined) return null
    const deliveries = await this.db
      .selectFrom('lead_deliveries')
      .selectAll()
      .where('request_id', '=', id)
      .orderBy('channel')
      .execute()
    return { ...toRecord(row), deliveries: deliveries.map(toDelivery) }
  }

  /**
   * Takes up to `limit` deliveries that are due and held by nobody, and holds them for `leaseMs`
   * (a worker that dies lets them go when it ends). With several servers on PostgreSQL each is
   * taken by one of them (FOR UPDATE SKIP LOCKED).
   */
  async claimDue(
    channels: readonly Channel[],
    limit: number,
    leaseMs: number,
  ): Promise<{ delivery: Delivery; record: OutboxRecord }[]> {
    if (channels.length === 0) return []
    const now = Date.now()
    return this.transact(async (trx) => {
      let due = trx
        .selectFrom('lead_deliveries')
        .selectAll()
        .where('state', '=', 'pending')
        .where('channel', 'in', channels)
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
      if (this.kind === 'postgres') due = due.forUpdate().skipLocked()
      const rows = await due.execute()
      if (rows.length === 0) return []
      for (const row of rows) {
        await trx
          .updateTable('lead_deliveries')
          .set({ locked_until: now + leaseMs })
          .where('request_id', '=', row.request_id)
          .where('channel', '=', row.channel)
          .execute()
      }
      const requests = await trx
        .selectFrom('lead_requests')
        .selectAll()
        .where(
          'id',
          'in',
          rows.map((row) => row.request_id),
        )
        .execute()
      const byId = new Map(requests.map((request) => [request.id, toRecord(request)]))
      return rows.map((row) => ({ delivery: toDelivery(row), record: byId.get(row.request_id)! }))
    })
  }

  async markDelivered(requestId: string, channel: Channel, note: string | null = null) {
    await this.settle(requestId, channel, {
      state: 'delivered',
      delivered_at: new Date().toISOString(),
      last_error: note,
    })
  }

  async markRetry(requestId: string, channel: Channel, nextAttemptAt: number, error: string) {
    await this.settle(requestId, channel, {
      state: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: error,
    })
  }

  async markFailed(requestId: string, channel: Channel, error: string) {
    await this.settle(requestId, channel, { state: 'failed', last_error: error })
  }

  private async settle(
    requestId: string,
    channel: Channel,
    changes: Partial<Omit<DeliveriesTable, 'request_id' | 'channel'>>,
  ) {
    await this.db
      .updateTable('lead_deliveries')
      .set((eb) => ({ ...changes, locked_until: null, attempts: eb('attempts', '+', 1) }))
      .where('request_id', '=', requestId)
      .where('channel', '=', channel)
      .execute()
  }

  /**
   * Sends a request's failed deliveries again (all of them with no id), as new: they are tried
   * at once and retried for up to three days more. Returns how many were queued.
   */
  async resendFailed(requestId?: string): Promise<number> {
    let update = this.db
      .updateTable('lead_deliveries')
      .set({
        state: 'pending',
        attempts: 0,
        next_attempt_at: Date.now(),
        retry_until: Date.now() + RETRY_FOR_MS,
        locked_until: null,
      })
      .where('state', '=', 'failed')
    if (requestId !== undefined) update = update.where('request_id', '=', requestId)
    const result = await update.executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** Puts back deliveries a stopped worker of this store still held (SQLite: one server). */
  async releaseHeld(): Promise<void> {
    await this.db
      .updateTable('lead_deliveries')
      .set({ locked_until: null })
      .where('locked_until', 'is not', null)
      .execute()
  }

  async close(): Promise<void> {
    await this.db.destroy()
  }
}

class SqliteStore extends LeadStore {
  readonly kind = 'sqlite'
  protected readonly setting = 'DATA_DIR'
  private readonly pageSize: number

  constructor(
    readonly location: string,
    private readonly sqlite: SqliteDatabase.Database,
    private readonly dataDir: string,
    options: StoreOptions,
  ) {
    super(new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), options)
    this.pageSize = pragmaValue(sqlite, 'page_size')
  }

  /**
   * SQLite rolls a transaction back by itself when the disk or the cap is full; the driver's own
   * rollback would then fail and hide why. BEGIN IMMEDIATE takes the write lock at once, so the
   * CLI writing meanwhile waits its turn (busy timeout) instead of failing half way.
   */
  override transact<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection)
      try {
        const result = await work(connection)
        await sql`commit`.execute(connection)
        return result
      } catch (error) {
        if (this.sqlite.inTransaction)
          await sql`rollback`.execute(connection).catch(() => undefined)
        throw error
      }
    })
  }

  /**
   * SQLite keeps a transaction's pages in memory until it commits: only a committed write
   * (taken back by a second one) shows whether the disk has room again.
   */
  protected override async probe(): Promise<string | null> {
    try {
      await this.transact((trx) =>
        trx
          .insertInto('lead_probe')
          .values({ id: randomUUID(), data: 'x'.repeat(this.options.largestRecordBytes) })
          .execute(),
      )
      // Any probe left by a delete that failed goes too.
      await this.transact((trx) => trx.deleteFrom('lead_probe').execute())
    } catch (error) {
      return `a probe write failed: ${message(error)}`
    }
    return null
  }

  protected async usedBytes(): Promise<number> {
    const pages = pragmaValue(this.sqlite, 'page_count')
    const free = pragmaValue(this.sqlite, 'freelist_count')
    return (pages - free) * this.pageSize
  }

  protected async diskProblem(): Promise<string | null> {
    const needed = Math.max(MIN_FREE_BYTES, this.options.largestRecordBytes)
    const free = await (this.options.freeBytes ?? defaultFreeBytes)(this.dataDir)
    if (free >= needed) return this.failure === null ? null : this.probe()
    return `only ${free} bytes of disk space are left for the store (${needed} needed)`
  }

  protected asOutboxError(error: unknown, used: number): OutboxError {
    const code = (error as { code?: string } | null)?.code ?? ''
    const maxPages = pragmaValue(this.sqlite, 'max_page_count')
    if (code === 'SQLITE_FULL') {
      // The cap (max_page_count) and a full disk say the same; the page count tells them apart.
      const nearCap = used + this.options.largestRecordBytes * 2 >= maxPages * this.pageSize
      return nearCap
        ? new OutboxError(
            'full',
            `the store is full at ${used} bytes (OUTBOX_MAX_BYTES ${this.options.maxBytes})`,
            { cause: error },
          )
        : new OutboxError('no-space', `no space left for the store (${message(error)})`, {
            cause: error,
          })
    }
    return new OutboxError('write-failed', `the store could not be written (${message(error)})`, {
      cause: error,
    })
  }
}

class PostgresStore extends LeadStore {
  readonly kind = 'postgres'
  protected readonly setting = 'DATABASE_URL'

  constructor(
    readonly location: string,
    options: StoreOptions,
    pool: pg.Pool,
  ) {
    super(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), options)
  }

  /** Two servers starting at once on an empty database: one migrates, the other waits. */
  override async migrate(): Promise<void> {
    await this.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(hashtext('gaspre-lead-store-migrate'))`.execute(connection)
      try {
        const { error } = await new Migrator({ db: connection, provider }).migrateToLatest()
        if (error !== undefined) {
          throw new StoreError(`DATABASE_URL ${this.location}: migration failed: ${message(error)}`)
        }
      } finally {
        await sql`select pg_advisory_unlock(hashtext('gaspre-lead-store-migrate'))`.execute(
          connection,
        )
      }
    })
  }

  protected async usedBytes(): Promise<number> {
    const { rows } = await sql<{ bytes: string }>`
      select (pg_total_relation_size('lead_requests') + pg_total_relation_size('lead_deliveries'))::text as bytes
    `.execute(this.db)
    return Number(rows[0]?.bytes ?? 0)
  }

  /** The database's disk cannot be seen from here: after a write failed, a probe tells. */
  protected async diskProblem(): Promise<string | null> {
    return this.failure === null ? null : this.probe()
  }

  protected asOutboxError(error: unknown): OutboxError {
    const code = (error as { code?: string } | null)?.code
    if (code === '53100') {
      return new OutboxError('no-space', `no space left for the store (${message(error)})`, {
        cause: error,
      })
    }
    return new OutboxError('write-failed', `the store could not be written (${message(error)})`, {
      cause: error,
    })
  }
}

/** The database URL for people and logs: without its password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://…'
  }
}

/**
 * Opens the store (PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`) and migrates
 * it; throws a StoreError naming the variable when it cannot be used.
 */
export async function openLeadStore(
  target: { dataDir: string; databaseUrl?: string | undefined },
  options: StoreOptions,
): Promise<LeadStore> {
  if (target.databaseUrl !== undefined) {
    const location = redactUrl(target.databaseUrl)
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 10_000,
    })
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => undefined)
    const store = new PostgresStore(location, options, pool)
    try {
      await sql`select 1`.execute(store.db)
    } catch (error) {
      await store.close().catch(() => undefined)
      throw new StoreError(`DATABASE_URL ${location} cannot be reached: ${message(error)}`)
    }
    try {
      await store.migrate()
    } catch (error) {
      await store.close().catch(() => undefined)
      throw error instanceof StoreError
        ? error
        : new StoreError(`DATABASE_URL ${location}: ${message(error)}`)
    }
    return store
  }
  const file = join(target.dataDir, SQLITE_FILE)
  let sqlite: SqliteDatabase.Database
  try {
    sqlite = openSqlite(file)
    // exec(), not pragma(): it makes no statement object (see openSqlite). secure_delete: what
    // is deleted (an erased request) is overwritten with zeros, not left in free pages.
    sqlite.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; ' +
        'PRAGMA secure_delete = ON',
    )
    const pageSize = pragmaValue(sqlite, 'page_size')
    // The cap: SQLite refuses to grow the file past it (SQLITE_FULL), whatever the writer.
    const maxPages = Math.max(Math.floor(options.maxBytes / pageSize), 16)
    sqlite.exec(`PRAGMA max_page_count = ${maxPages}`)
  } catch (error) {
    throw new StoreError(
      `DATA_DIR ${target.dataDir} cannot hold the demo requests: ${file}: ${message(error)}. ` +
        'Point DATA_DIR at a folder this user can write.',
    )
  }
  const store = new SqliteStore(file, sqlite, target.dataDir, options)
  try {
    await store.migrate()
  } catch (error) {
    await store.close().catch(() => undefined)
    throw error instanceof StoreError
      ? error
      : new StoreError(`DATA_DIR ${target.dataDir}: ${message(error)}`)
  }
  return store
}
