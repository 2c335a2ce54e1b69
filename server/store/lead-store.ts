// The lead server's store: every demo request, and one delivery per configured channel, in a
// database. SQLite in DATA_DIR by default (lead-store-sqlite.ts), PostgreSQL when DATABASE_URL
// is set (lead-store-postgres.ts; several servers share it). One schema for both
// (lead-store-schema.ts), made by versioned migrations at start (lead-store-migrations/); every
// query goes through Kysely's builder. A request and its deliveries are written in one
// transaction: a request is never stored without the deliveries
// that carry it to people, nor the reverse. This module is the one others import.
import { Migrator, type Kysely } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import type { Readiness } from './capacity.js'
import { Capacity, type StoreOptions } from './capacity.js'
import { StoreError, errorText, type Dialect } from './dialect.js'
import { count, request, requests, type RequestFilter } from './listing.js'
import { claimKey, pruneKeys, releaseKey, type KeyClaim } from './idempotency-keys.js'
import { migrations } from './migrations/index.js'
import { openPostgresDialect } from './postgres.js'
import {
  claimJobs,
  extendLeases,
  recordRecipients,
  releaseLeases,
  resendFailed,
  settle,
  type Job,
  type JobRef,
} from './queue.js'
import type { StoredRequest } from './records.js'
import type { Channel, LeadDatabase } from './schema.js'
import { openSqliteDialect } from './sqlite.js'
import {
  countHeld,
  importRecords,
  releaseHeldRequests,
  writeRequest,
  type AlsoWrite,
} from './writes.js'

export type { StoreOptions } from './capacity.js'
export { keyAnswered } from './idempotency-keys.js'
export { StoreError } from './dialect.js'
export { jobRef, type Job, type JobRef } from './queue.js'
export type { AlsoWrite } from './writes.js'
export {
  toWhatsAppRoute,
  type Delivery,
  type Notice,
  type NoticeData,
  type StoredRequest,
  type UnreadData,
  type WhatsAppRoute,
} from './records.js'
export {
  CHANNELS,
  queuedAnew,
  type Channel,
  type ChannelsTable,
  type LeadDatabase,
  type NoticeType,
} from './schema.js'
export { SQLITE_FILE } from './sqlite.js'

/** The store, the same on both dialects: every query, through Kysely. */
export class LeadStore {
  readonly kind: 'sqlite' | 'postgres'
  /** Where the requests are, for people: a file path or a database without its password. */
  readonly location: string
  readonly db: Kysely<LeadDatabase>
  private readonly capacity: Capacity

  /** @internal openLeadStore makes one */
  constructor(
    private readonly dialect: Dialect,
    options: StoreOptions,
  ) {
    this.kind = dialect.kind
    this.location = dialect.location
    this.db = dialect.db
    this.capacity = new Capacity(dialect, options)
  }

  /** Runs `work` in one transaction: all of it is committed, or none. */
  atomically<T>(work: (trx: Kysely<LeadDatabase>) => Promise<T>): Promise<T> {
    return this.dialect.transact(work)
  }

  /** Applies the migrations this version knows and the database lacks. */
  async migrate(): Promise<void> {
    await this.dialect.migrating(async (db) => {
      const { error, results } = await new Migrator({ db, provider: migrations }).migrateToLatest()
      if (error !== undefined) {
        const failed = results?.find((result) => result.status === 'Error')?.migrationName
        throw new StoreError(
          `${this.dialect.setting} ${this.location}: migration ${failed ?? ''} failed: ` +
            errorText(error),
        )
      }
    })
  }

  /**
   * Stores the request and one pending delivery per channel in one transaction; resolves once
   * it is committed. Rejects with an StoreWriteError (and stores nothing) when it is not.
   * `inserted` is false when a request with this id was already there (an import run again).
   */
  async append(
    record: DemoRequestRecord,
    channels: readonly Channel[] = [],
    /** More to write in the same transaction (the WhatsApp rep's turn), once it is inserted. */
    alsoWrite?: AlsoWrite,
  ): Promise<boolean> {
    const { outcome } = await writeRequest(
      this.dialect,
      this.capacity,
      record,
      channels,
      null,
      alsoWrite,
    )
    return outcome === 'stored'
  }

  // Requests held past the total ceiling (a flood): kept apart until a person decides.

  /**
   * Stores the request as held (it came past the total ceiling): like append, with its
   * deliveries 'held', which the worker never takes, until releaseHeldRequests. Resolves to
   * how many are held now, or to null, storing nothing, when `cap` were held already.
   */
  async hold(
    record: DemoRequestRecord,
    channels: readonly Channel[],
    cap: number,
    alsoWrite?: AlsoWrite,
  ): Promise<number | null> {
    const { outcome, heldBefore } = await writeRequest(
      this.dialect,
      this.capacity,
      record,
      channels,
      cap,
      alsoWrite,
    )
    return outcome === 'cap-reached' ? null : heldBefore + (outcome === 'stored' ? 1 : 0)
  }

  /** How many requests are held now. */
  heldCount(): Promise<number> {
    return countHeld(this.db)
  }

  /**
   * Lets held requests go (one by its id, or all): their deliveries become pending, tried at
   * once and for three days, as if the requests had just come. Returns how many were released.
   */
  releaseHeldRequests(requestId?: string): Promise<number> {
    return releaseHeldRequests(this.dialect, requestId)
  }

  /** Bytes the store holds now, as OUTBOX_MAX_BYTES counts them. */
  bytes(): Promise<number> {
    return this.dialect.usedBytes()
  }

  /** Tells `listener` when the store turns ready or not ready, once per change. */
  watchReadiness(listener: (state: Readiness) => void): void {
    this.capacity.watch(listener)
  }

  /** Whether a request of the largest size would be stored now. */
  readiness(): Promise<Readiness> {
    return this.capacity.readiness()
  }

  /** Requests with their deliveries, newest first (oldest first with `oldestFirst`), in pages. */
  requests(filter: RequestFilter = {}, pageSize = 500): AsyncGenerator<StoredRequest> {
    return requests(this.db, filter, pageSize)
  }

  /**
   * Stores requests kept elsewhere (an outbox.jsonl) in one transaction, without deliveries:
   * they were handled before. A request whose id is already stored is left as it is.
   * Returns how many were new.
   */
  importRecords(records: readonly DemoRequestRecord[]): Promise<number> {
    return importRecords(this.dialect, records)
  }

  count(): Promise<number> {
    return count(this.db)
  }

  request(id: string): Promise<StoredRequest | null> {
    return request(this.db, id)
  }

  /**
   * Takes up to `limit` jobs of one channel that are due and held by nobody (its notices first,
   * then the requests' deliveries, oldest due first) and holds them for `leaseMs`: a worker that
   * dies lets them go when it ends. With several servers on PostgreSQL each is taken by one of
   * them (FOR UPDATE SKIP LOCKED). A probe of a failing channel takes one, due or not.
   */
  claimJobs(
    channel: Channel,
    limit: number,
    leaseMs: number,
    options: { probe?: boolean } = {},
  ): Promise<Job[]> {
    return claimJobs(this.dialect, channel, limit, leaseMs, options)
  }

  /** Holds jobs in progress for `leaseMs` more: a worker that stops extending lets them go. */
  extendLeases(jobs: readonly JobRef[], leaseMs: number): Promise<void> {
    return extendLeases(this.db, jobs, leaseMs)
  }

  /** The job was sent: delivered (to every recipient, for a mail). */
  async markDelivered(job: JobRef, note: string | null = null) {
    await settle(this.db, job, {
      state: 'delivered',
      delivered_at: new Date().toISOString(),
      last_error: note,
    })
  }

  /** A fault of the job's own that may pass: tried again at `nextAttemptAt`. */
  async markRetry(job: JobRef, nextAttemptAt: number, error: string) {
    await settle(this.db, job, {
      state: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: error,
    })
  }

  /** A fault of the job's own that will not pass: a dead letter. */
  async markFailed(job: JobRef, error: string) {
    await settle(this.db, job, { state: 'failed', last_error: error })
  }

  /**
   * The channel failed, not the job: it stays pending as it was, its attempts uncounted, until
   * the channel works again.
   */
  async putBack(job: JobRef, error: string | null) {
    await settle(this.db, job, error === null ? {} : { last_error: error }, {
      countAttempt: false,
    })
  }

  /** Records who took a mail and who refused it for good, as the recipients answer. */
  async recordRecipients(job: JobRef, done: readonly string[], refused: readonly string[]) {
    await recordRecipients(this.db, job, done, refused)
  }

  /**
   * Sends a request's failed deliveries again (all of them with no id), as new: they are tried
   * at once and retried for up to three days more; a mail goes to the recipients that have not
   * taken it yet. Returns how many were queued.
   */
  resendFailed(requestId?: string): Promise<number> {
    return resendFailed(this.db, requestId)
  }

  // The door's Idempotency-Keys (idempotency-keys.ts); keyAnswered writes the answer with the
  // request.

  /** Claims `key` for a request with this fingerprint, or says what the key already holds. */
  claimIdempotencyKey(key: string, fingerprint: string, now = Date.now()): Promise<KeyClaim> {
    return claimKey(this.db, key, fingerprint, now)
  }

  /** Lets a key go whose request was not stored. */
  releaseIdempotencyKey(key: string): Promise<void> {
    return releaseKey(this.db, key)
  }

  /** Forgets the keys older than a day; resolves to how many. */
  pruneIdempotencyKeys(now = Date.now()): Promise<number> {
    return pruneKeys(this.db, now)
  }

  /** Puts back deliveries and notices a stopped worker of this store still held (SQLite: one server). */
  releaseHeld(): Promise<void> {
    return releaseLeases(this.db)
  }

  async close(): Promise<void> {
    await this.db.destroy()
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
  const dialect =
    target.databaseUrl === undefined
      ? openSqliteDialect(target.dataDir, options)
      : await openPostgresDialect(target.databaseUrl)
  const store = new LeadStore(dialect, options)
  try {
    await store.migrate()
    dialect.migrated?.()
  } catch (error) {
    await store.close().catch(() => undefined)
    throw error instanceof StoreError
      ? error
      : new StoreError(
          `${dialect.setting} ${dialect.dataDir ?? dialect.location}: ${errorText(error)}`,
        )
  }
  return store
}
