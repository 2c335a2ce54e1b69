// The lead server's store: every demo request, and one delivery job per configured channel, in
// a database. SQLite in DATA_DIR by default (sqlite.ts), PostgreSQL when DATABASE_URL is set
// (postgres.ts; several servers share it). One schema for both (schema.ts), made by versioned
// migrations at start (migrations/); every query goes through Kysely's builder, in this room
// only. A request and its deliveries are written in one transaction: a request is never stored
// without the deliveries that carry it to people, nor the reverse. This module is the one
// others import.
import { Migrator } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import type { Readiness } from './capacity.js'
import { Capacity, type StoreOptions } from './capacity.js'
import { BookingBook } from './bookings.js'
import { ChannelBook } from './channels.js'
import { StoreError, type Dialect } from './dialect.js'
import { ErasureBook } from './erasure.js'
import { errorText } from '../text/index.js'
import { count, request, requests, type RequestFilter } from './listing.js'
import { claimKey, pruneKeys, releaseKey, type KeyClaim } from './idempotency-keys.js'
import { migrations } from './migrations/index.js'
import { openPostgresDialect } from './postgres.js'
import { JobQueue } from './queue.js'
import type { StoredRequest } from './records.js'
import type { Channel } from './schema.js'
import { openSqliteDialect } from './sqlite.js'
import { WhatsAppBook } from './whatsapp.js'
import {
  countHeld,
  importRecords,
  releaseHeldRequests,
  writeRequest,
  type AlsoWrite,
  type RouteFor,
} from './writes.js'

export type { StoreOptions } from './capacity.js'
export { type ChannelState } from './channels.js'
export { StoreError } from './dialect.js'
export { keyAnswered } from './idempotency-keys.js'
export { type ErasureRule } from './erasure.js'
export {
  type Meeting,
  type MeetingNotice,
  type MeetingNotices,
  type Offer,
  offerBooking,
} from './bookings.js'
export { type RequestFilter } from './listing.js'
export { type ChannelBacklog, jobRef, type Job, type JobRef } from './queue.js'
export type { AlsoWrite } from './writes.js'
export {
  type Delivery,
  type MeetingData,
  type Notice,
  type StoredRequest,
  type StuckData,
  type UnreadData,
  type WhatsAppRoute,
} from './records.js'
export { CHANNELS, type Channel, type Watched } from './schema.js'
export { SQLITE_FILE } from './sqlite.js'
export { type MessageStatus, type RouteChoice } from './whatsapp.js'

/**
 * The store, the same on both dialects: every query, through Kysely, and none outside this
 * room. The requests are its own; its parts keep the rest, each with named operations: the job
 * queue, the channels' health, the WhatsApp routes and erasure.
 */
export class LeadStore {
  readonly kind: 'sqlite' | 'postgres'
  /** Where the requests are, for people: a file path or a database without its password. */
  readonly location: string
  /** Deliveries and notices: claimed on a lease, settled, resent (queue.ts). */
  readonly queue: JobQueue
  /** How each channel delivers, shared by every server (channels.ts). */
  readonly channels: ChannelBook
  /** Each request's WhatsApp reps and messages (whatsapp.ts). */
  readonly whatsapp: WhatsAppBook
  /** A person's, the held and the expired requests erased, and the record of it (erasure.ts). */
  readonly erasure: ErasureBook
  /** The booking offers and the meetings booked through them (bookings.ts). */
  readonly bookings: BookingBook
  private readonly capacity: Capacity

  /** @internal openLeadStore makes one */
  constructor(
    private readonly dialect: Dialect,
    options: StoreOptions,
  ) {
    this.kind = dialect.kind
    this.location = dialect.location
    this.capacity = new Capacity(dialect, options)
    this.queue = new JobQueue(dialect)
    this.channels = new ChannelBook(dialect)
    this.whatsapp = new WhatsAppBook(dialect)
    this.erasure = new ErasureBook(dialect)
    this.bookings = new BookingBook(dialect)
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
    /** The WhatsApp route to store with it (its rep's turn), in the same transaction. */
    routeFor?: RouteFor,
    /** What else to write in that transaction (the door's key and its answer). */
    alsoWrite?: AlsoWrite,
  ): Promise<boolean> {
    const { outcome } = await writeRequest(
      this.dialect,
      this.capacity,
      record,
      channels,
      null,
      routeFor,
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
    routeFor?: RouteFor,
    alsoWrite?: AlsoWrite,
  ): Promise<number | null> {
    const { outcome, heldBefore } = await writeRequest(
      this.dialect,
      this.capacity,
      record,
      channels,
      cap,
      routeFor,
      alsoWrite,
    )
    return outcome === 'cap-reached' ? null : heldBefore + (outcome === 'stored' ? 1 : 0)
  }

  /** How many requests are held now. */
  heldCount(): Promise<number> {
    return countHeld(this.dialect.db)
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
    return requests(this.dialect.db, filter, pageSize)
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
    return count(this.dialect.db)
  }

  request(id: string): Promise<StoredRequest | null> {
    return request(this.dialect.db, id)
  }

  // The door's Idempotency-Keys (idempotency-keys.ts); keyAnswered writes the answer with the
  // request.

  /** Claims `key` for a request with this fingerprint, or says what the key already holds. */
  claimIdempotencyKey(key: string, fingerprint: string, now = Date.now()): Promise<KeyClaim> {
    return claimKey(this.dialect.db, key, fingerprint, now)
  }

  /** Lets a key go whose request was not stored. */
  releaseIdempotencyKey(key: string): Promise<void> {
    return releaseKey(this.dialect.db, key)
  }

  /** Forgets the keys older than a day; resolves to how many. */
  pruneIdempotencyKeys(now = Date.now()): Promise<number> {
    return pruneKeys(this.dialect.db, now)
  }

  async close(): Promise<void> {
    await this.dialect.db.destroy()
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
