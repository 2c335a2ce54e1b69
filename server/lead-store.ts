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
 * @internal its tests use it too
 */
export function addonForThisNode(): string | undefined {
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
export const CHANNELS = ['email', 'webhook', 'whatsapp'] as const
export type Channel = (typeof CHANNELS)[number]

/** How long a delivery is retried for faults of its own before it is a dead letter: three days. */
const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000

/** 'held': the request came past the total ceiling and waits for a person to release it. */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'held'

interface RequestsTable {
  id: string
  received_at: string
  service_id: string
  template_id: string
  /** The template params as a JSON object of strings. */
  params: string
  /** 1 while the request is held (it came past the total ceiling), else 0. */
  held: number
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
  /** When the delivery was queued (or queued again by a resend), ms since the epoch. */
  queued_at: number | string | null
  /** E-mail only: the recipients that took the mail already, as a JSON array. */
  done_recipients: string | null
  /** E-mail only: the recipients that refused it for good, as a JSON array. */
  refused_recipients: string | null
}

/** How a channel delivers, shared by every server on the store. */
export interface ChannelsTable {
  channel: Channel
  /** Null while the channel delivers; when its current outage began otherwise. */
  failing_since: number | string | null
  /** Channel faults in a row, for the probe's backoff. */
  failures: number
  last_error: string | null
  /** While failing: when the next probe (one delivery) may go; taken by one server. */
  next_probe_at: number | string | null
  last_success_at: number | string | null
  /** 1 once the failing notices of the current outage were queued (by one server). */
  outage_notified: number
}

/** A notice to the people about delivery itself, carried by one channel for another. */
interface NoticesTable {
  id: string
  /** The channel that carries the notice. */
  carrier: Channel
  type: NoticeType
  /** The channel the notice speaks of. */
  subject: Channel
  /** When the outage it speaks of began: one notice of each type per outage and carrier. */
  outage: number | string
  /** What the notice says, as JSON (NoticeData). */
  data: string
  created_at: string
  state: DeliveryState
  attempts: number
  next_attempt_at: number | string
  locked_until: number | string | null
  last_error: string | null
  delivered_at: string | null
}

/** A channel's outage and its end; a flood whose requests were held (its subject: the carrier); a WhatsApp message nobody read. */
export type NoticeType =
  'delivery.failing' | 'delivery.recovered' | 'demo_requests.held' | 'whatsapp.unread'

/** Whose turn it is in each WhatsApp territory: the round robin, shared by every server. */
interface WhatsAppTurnsTable {
  /** `+52`, `+34`, … or `*` for the default. */
  territory: string
  /** Requests assigned in the territory so far. */
  turns: number | string
}

/** The WhatsApp route of one request: its reps in the order they are tried, and where it is. */
export interface WhatsAppTable {
  request_id: string
  territory: string
  /** The reps' numbers (E.164), as a JSON array, in the order they are tried. */
  reps: string
  /** The step it is at: the rep is reps[step % reps.length]. */
  step: number
  /** The first step past this round: each rep is tried once a round. */
  round_end: number
  /** When every rep of the round was tried and nobody read it (ms since the epoch). */
  exhausted_at: number | string | null
}

/** One message to one rep: what the Cloud API and its status webhook said of it. */
export interface WhatsAppMessagesTable {
  request_id: string
  step: number
  rep: string
  /** The Cloud API's id (`wamid.…`) once it took the message. */
  wamid: string | null
  /** When the Cloud API took it; the times below are the phone's, as the statuses say. */
  sent_at: number | string | null
  delivered_at: number | string | null
  read_at: number | string | null
  failed_at: number | string | null
  failure: string | null
  /** Unread by then (working hours counted), it goes to the next rep. */
  escalate_at: number | string | null
  /** When it went on to the next rep (unread, failed, or refused by the Cloud API). */
  moved_on_at: number | string | null
  /** Why it moved on: `unread`, `failed` or `refused`. */
  moved_on_because: string | null
}

/** @internal whatsapp-store.ts queries it */
export interface LeadDatabase {
  lead_requests: RequestsTable
  lead_deliveries: DeliveriesTable
  lead_channels: ChannelsTable
  lead_notices: NoticesTable
  /** Where readiness writes a probe after a failed write; never holds a request. */
  lead_probe: { id: string; data: string }
  lead_whatsapp_turns: WhatsAppTurnsTable
  lead_whatsapp: WhatsAppTable
  lead_whatsapp_messages: WhatsAppMessagesTable
  lead_whatsapp_early_statuses: {
    wamid: string
    status: string
    at: number | string
    failure: string | null
    received_at: number | string
  }
}
type Database = LeadDatabase

/** Written in a request's own transaction once it is inserted (the WhatsApp rep's turn). */
export type AlsoWrite = (trx: Kysely<Database>, record: OutboxRecord) => Promise<void>

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
  /** When it was queued, ms since the epoch. */
  queuedAt: number
  /** While a worker sends it: until when it holds it (ms since the epoch); null otherwise. */
  sendingUntil: number | null
  /** E-mail only: who took the mail already, and who refused it for good. */
  doneRecipients: string[]
  refusedRecipients: string[]
}

export interface StoredRequest extends OutboxRecord {
  deliveries: Delivery[]
  /** Where its WhatsApp messages went, with what each rep's phone said; null: no WhatsApp. */
  whatsapp: WhatsAppRoute | null
  /** Came past the total ceiling: stored, not delivered until released. */
  held: boolean
}

/** One WhatsApp message to one rep, with its times (ms since the epoch) as the statuses say. */
export interface WhatsAppMessage {
  step: number
  rep: string
  wamid: string | null
  sentAt: number | null
  deliveredAt: number | null
  readAt: number | null
  failedAt: number | null
  failure: string | null
  escalateAt: number | null
  movedOnAt: number | null
  movedOnBecause: 'unread' | 'failed' | 'refused' | null
}

/** A request's WhatsApp route: chosen when it was stored, moved on when nobody reads it. */
export interface WhatsAppRoute {
  /** `+52`, `+34`, … or `*`. */
  territory: string
  /** The reps in the order they are tried. */
  reps: string[]
  step: number
  roundEnd: number
  exhaustedAt: number | null
  /** The rep it goes to now. */
  rep: string
  /** One per rep tried, in order (loaded for listings; empty for a job). */
  messages: WhatsAppMessage[]
}

/** A notice about delivery, as the worker sends it. */
export interface Notice {
  id: string
  carrier: Channel
  type: NoticeType
  subject: Channel
  data: NoticeData
  createdAt: string
  attempts: number
}

/** What a notice says: the channel's outage, for the people who can mend it. */
export interface NoticeData {
  /** When the outage began, ISO 8601. */
  since: string
  /** When it ended, for a recovery. */
  until?: string
  /** Requests waiting for the channel when the notice was written. */
  waiting: number
  /** The last error the channel gave. */
  reason: string | null
  /** A WhatsApp message nobody read (type `whatsapp.unread`): who did not, and who is next. */
  unread?: UnreadData
}

export interface UnreadData {
  requestId: string
  contactNumber: string
  name: string
  group: string
  /** The rep who did not read it (or could not receive it). */
  rep: string
  because: 'unread' | 'failed' | 'refused'
  /** The Cloud API's words, for `failed` and `refused`. */
  failure: string | null
  /** The rep it goes to now; null when every rep was tried. */
  next: string | null
  /** Every rep tried so far, in order. */
  tried: string[]
  minutes: number
}

/** Something a worker sends through one channel: a request's delivery, or a notice. */
export type Job =
  | { kind: 'request'; delivery: Delivery; record: OutboxRecord; whatsapp: WhatsAppRoute | null }
  | { kind: 'notice'; notice: Notice }

/** Which job a result is for. */
export type JobRef =
  { kind: 'request'; requestId: string; channel: Channel } | { kind: 'notice'; id: string }

export const jobRef = (job: Job): JobRef =>
  job.kind === 'request'
    ? { kind: 'request', requestId: job.record.id, channel: job.delivery.channel }
    : { kind: 'notice', id: job.notice.id }

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

MIGRATIONS['003-channel-health'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_channels')
      .addColumn('channel', 'text', (column) => column.primaryKey())
      .addColumn('failing_since', 'bigint')
      .addColumn('failures', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_probe_at', 'bigint')
      .addColumn('last_success_at', 'bigint')
      .addColumn('outage_notified', 'integer', (column) => column.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('lead_notices')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('carrier', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('subject', 'text', (column) => column.notNull())
      .addColumn('outage', 'bigint', (column) => column.notNull())
      .addColumn('data', 'text', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addUniqueConstraint('lead_notices_once', ['carrier', 'type', 'subject', 'outage'])
      .execute()
    // SQLite adds one column per statement.
    for (const column of ['queued_at', 'done_recipients', 'refused_recipients'] as const) {
      await db.schema
        .alterTable('lead_deliveries')
        .addColumn(column, column === 'queued_at' ? 'bigint' : 'text')
        .execute()
    }
    await sql`update lead_deliveries set queued_at = retry_until - ${RETRY_FOR_MS}`.execute(db)
  },
}

MIGRATIONS['020-held-requests'] = {
  async up(db: Kysely<unknown>) {
    // Held: a request that came past the total ceiling, kept apart until a person releases or
    // erases it. On the request, so that one stored with no channel configured is held too.
    await db.schema
      .alterTable('lead_requests')
      .addColumn('held', 'integer', (column) => column.notNull().defaultTo(0))
      .execute()
    await db.schema.createIndex('lead_requests_held').on('lead_requests').column('held').execute()
  },
}

// The record of erasures, in a module of its own (erasure-log.ts).
MIGRATIONS['030-erasures'] = erasuresMigration

// Named in the order they are applied: the migrator refuses one that sorts before an applied one.
MIGRATIONS['040-whatsapp'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_whatsapp_turns')
      .addColumn('territory', 'text', (column) => column.primaryKey())
      .addColumn('turns', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createTable('lead_whatsapp')
      .addColumn('request_id', 'text', (column) =>
        column.primaryKey().references('lead_requests.id').onDelete('cascade'),
      )
      .addColumn('territory', 'text', (column) => column.notNull())
      .addColumn('reps', 'text', (column) => column.notNull())
      .addColumn('step', 'integer', (column) => column.notNull())
      .addColumn('round_end', 'integer', (column) => column.notNull())
      .addColumn('exhausted_at', 'bigint')
      .execute()
    await db.schema
      .createTable('lead_whatsapp_messages')
      .addColumn('request_id', 'text', (column) =>
        column.notNull().references('lead_requests.id').onDelete('cascade'),
      )
      .addColumn('step', 'integer', (column) => column.notNull())
      .addColumn('rep', 'text', (column) => column.notNull())
      .addColumn('wamid', 'text')
      .addColumn('sent_at', 'bigint')
      .addColumn('delivered_at', 'bigint')
      .addColumn('read_at', 'bigint')
      .addColumn('failed_at', 'bigint')
      .addColumn('failure', 'text')
      .addColumn('escalate_at', 'bigint')
      .addColumn('moved_on_at', 'bigint')
      .addColumn('moved_on_because', 'text')
      .addPrimaryKeyConstraint('lead_whatsapp_messages_pk', ['request_id', 'step'])
      .execute()
    await db.schema
      .createIndex('lead_whatsapp_messages_wamid')
      .on('lead_whatsapp_messages')
      .column('wamid')
      .execute()
    // Statuses that came before the Cloud API's answer was stored (or from another server):
    // applied once their message is known.
    await db.schema
      .createTable('lead_whatsapp_early_statuses')
      .addColumn('wamid', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('at', 'bigint', (column) => column.notNull())
      .addColumn('failure', 'text')
      .addColumn('received_at', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createIndex('lead_whatsapp_early_statuses_wamid')
      .on('lead_whatsapp_early_statuses')
      .column('wamid')
      .execute()
    await db.schema
      .createIndex('lead_whatsapp_messages_due')
      .on('lead_whatsapp_messages')
      .columns(['moved_on_at', 'escalate_at'])
      .execute()
  },
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

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
  /**
   * Given the SQLite connection once it is open and migrated (SQLite only): the seam through
   * which the browser suites make a fault inside the database itself (testing/full-disk.mjs).
   */
  onSqliteOpen?: (connection: SqliteDatabase.Database) => void
}

const addresses = (json: string | null): string[] =>
  json === null ? [] : (JSON.parse(json) as string[])

const toDelivery = (row: DeliveriesTable): Delivery => ({
  requestId: row.request_id,
  channel: row.channel,
  state: row.state,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
  retryUntil: Number(row.retry_until),
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
  queuedAt: Number(row.queued_at ?? Number(row.retry_until) - RETRY_FOR_MS),
  sendingUntil:
    row.locked_until !== null && Number(row.locked_until) > Date.now()
      ? Number(row.locked_until)
      : null,
  doneRecipients: addresses(row.done_recipients),
  refusedRecipients: addresses(row.refused_recipients),
})

const toNotice = (row: NoticesTable): Notice => ({
  id: row.id,
  carrier: row.carrier,
  type: row.type,
  subject: row.subject,
  data: JSON.parse(row.data) as NoticeData,
  createdAt: row.created_at,
  attempts: row.attempts,
})

const msOrNull = (value: number | string | null): number | null =>
  value === null ? null : Number(value)

/** @internal whatsapp-store.ts reads routes too */
export const toWhatsAppRoute = (
  row: WhatsAppTable,
  messages: readonly WhatsAppMessagesTable[] = [],
): WhatsAppRoute => {
  const reps = JSON.parse(row.reps) as string[]
  return {
    territory: row.territory,
    reps,
    step: row.step,
    roundEnd: row.round_end,
    exhaustedAt: msOrNull(row.exhausted_at),
    rep: reps[row.step % reps.length]!,
    messages: messages
      .filter((message) => message.request_id === row.request_id)
      .sort((a, b) => a.step - b.step)
      .map((message) => ({
        step: message.step,
        rep: message.rep,
        wamid: message.wamid,
        sentAt: msOrNull(message.sent_at),
        deliveredAt: msOrNull(message.delivered_at),
        readAt: msOrNull(message.read_at),
        failedAt: msOrNull(message.failed_at),
        failure: message.failure,
        escalateAt: msOrNull(message.escalate_at),
        movedOnAt: msOrNull(message.moved_on_at),
        movedOnBecause: message.moved_on_because as WhatsAppMessage['movedOnBecause'],
      })),
  }
}

const toRecord = (row: RequestsTable): OutboxRecord => ({
  id: row.id,
  receivedAt: row.received_at,
  serviceId: row.service_id,
  templateId: row.template_id,
  params: JSON.parse(row.params) as Record<string, string>,
})

const fromRecord = (record: OutboxRecord, held = false): RequestsTable => ({
  id: record.id,
  received_at: record.receivedAt,
  service_id: record.serviceId,
  template_id: record.templateId,
  params: JSON.stringify(record.params),
  held: held ? 1 : 0,
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

  /** Runs `work` in one transaction: all of it is committed, or none. */
  atomically<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.transact(work)
  }

  /** Runs `work` in one transaction: all of it is committed, or none. */
  protected transact<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
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
  async append(
    record: OutboxRecord,
    channels: readonly Channel[] = [],
    /** More to write in the same transaction (the WhatsApp rep's turn), once it is inserted. */
    alsoWrite?: AlsoWrite,
  ): Promise<boolean> {
    return (await this.write(record, channels, null, alsoWrite)).outcome === 'stored'
  }

  /** Stores a request (held when `holdCap` is a number, within that cap). */
  private async write(
    record: OutboxRecord,
    channels: readonly Channel[],
    holdCap: number | null,
    alsoWrite: AlsoWrite | undefined,
  ): Promise<{ outcome: 'stored' | 'already-stored' | 'cap-reached'; heldBefore: number }> {
    const held = holdCap !== null
    let heldBefore = 0
    const row = fromRecord(record, held)
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
      const outcome = await this.transact(async (trx) => {
        if (holdCap !== null) {
          // Servers sharing PostgreSQL count one after another, so the cap holds for them all.
          if (this.kind === 'postgres') {
            await sql`select pg_advisory_xact_lock(hashtext('gaspre-held-requests'))`.execute(trx)
          }
          heldBefore = await this.countHeld(trx)
          if (heldBefore >= holdCap) return 'cap-reached' as const
        }
        const result = await trx
          .insertInto('lead_requests')
          .values(row)
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst()
        if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return 'already-stored' as const
        if (channels.length > 0) {
          const now = Date.now()
          await trx
            .insertInto('lead_deliveries')
            .values(
              channels.map((channel) => ({
                request_id: record.id,
                channel,
                state: held ? ('held' as const) : ('pending' as const),
                attempts: 0,
                next_attempt_at: now,
                retry_until: now + RETRY_FOR_MS,
                locked_until: null,
                last_error: null,
                delivered_at: null,
                queued_at: now,
                done_recipients: null,
                refused_recipients: null,
              })),
            )
            .execute()
        }
        await alsoWrite?.(trx, record)
        return 'stored' as const
      })
      this.failure = null
      return { outcome, heldBefore }
    } catch (error) {
      const failure = error instanceof OutboxError ? error : this.asOutboxError(error, used)
      if (failure.failure !== 'full') this.failure = failure.message
      throw failure
    } finally {
      this.report(await this.check())
    }
  }

  // Requests held past the total ceiling (a flood): kept apart until a person decides.

  /**
   * Stores the request as held (it came past the total ceiling): like append, with its
   * deliveries 'held', which the worker never takes, until releaseHeldRequests. Resolves to
   * how many are held now, or to null, storing nothing, when `cap` were held already.
   */
  async hold(
    record: OutboxRecord,
    channels: readonly Channel[],
    cap: number,
    alsoWrite?: AlsoWrite,
  ): Promise<number | null> {
    const { outcome, heldBefore } = await this.write(record, channels, cap, alsoWrite)
    return outcome === 'cap-reached' ? null : heldBefore + (outcome === 'stored' ? 1 : 0)
  }

  /** How many requests are held now. */
  async heldCount(): Promise<number> {
    return this.countHeld(this.db)
  }

  /**
   * Lets held requests go (one by its id, or all): their deliveries become pending, tried at
   * once and for three days, as if the requests had just come. Returns how many were released.
   */
  async releaseHeldRequests(requestId?: string): Promise<number> {
    return this.transact(async (trx) => {
      const now = Date.now()
      let held = trx.selectFrom('lead_requests').select('id').where('held', '=', 1)
      if (requestId !== undefined) held = held.where('id', '=', requestId)
      await trx
        .updateTable('lead_deliveries')
        .set({
          state: 'pending',
          attempts: 0,
          next_attempt_at: now,
          retry_until: now + RETRY_FOR_MS,
          // Queued now: how long it waited held is no delivery's delay (/healthz/delivery).
          queued_at: now,
          locked_until: null,
        })
        .where('state', '=', 'held')
        .where('request_id', 'in', held)
        .execute()
      let release = trx.updateTable('lead_requests').set({ held: 0 }).where('held', '=', 1)
      if (requestId !== undefined) release = release.where('id', '=', requestId)
      return Number((await release.executeTakeFirst()).numUpdatedRows)
    })
  }

  /** Erases every held request, with its deliveries, for good. Returns how many. */
  async eraseHeldRequests(): Promise<number> {
    return this.transact(async (trx) => {
      const held = trx.selectFrom('lead_requests').select('id').where('held', '=', 1)
      await trx.deleteFrom('lead_deliveries').where('request_id', 'in', held).execute()
      const erased = await trx.deleteFrom('lead_requests').where('held', '=', 1).executeTakeFirst()
      return Number(erased.numDeletedRows)
    })
  }

  private async countHeld(db: Kysely<Database>): Promise<number> {
    const { count } = await db
      .selectFrom('lead_requests')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('held', '=', 1)
      .executeTakeFirstOrThrow()
    return Number(count)
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
    filter: { oldestFirst?: boolean; failedOnly?: boolean; held?: boolean } = {},
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
      if (filter.held !== undefined) query = query.where('held', '=', filter.held ? 1 : 0)
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
      const routes = await this.whatsAppRoutes(rows.map((row) => row.id))
      for (const row of rows) {
        yield {
          ...toRecord(row),
          deliveries: deliveries.filter((d) => d.request_id === row.id).map(toDelivery),
          whatsapp: routes.get(row.id) ?? null,
          held: row.held === 1,
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
    const routes = await this.whatsAppRoutes([id])
    return {
      ...toRecord(row),
      deliveries: deliveries.map(toDelivery),
      whatsapp: routes.get(id) ?? null,
      held: row.held === 1,
    }
  }

  /** The WhatsApp routes of these requests, with every message of each. */
  private async whatsAppRoutes(
    ids: readonly string[],
    { messages = true }: { messages?: boolean } = {},
    db: Kysely<Database> = this.db,
  ): Promise<Map<string, WhatsAppRoute>> {
    if (ids.length === 0) return new Map()
    const rows = await db
      .selectFrom('lead_whatsapp')
      .selectAll()
      .where('request_id', 'in', ids)
      .execute()
    const sent =
      messages && rows.length > 0
        ? await db
            .selectFrom('lead_whatsapp_messages')
            .selectAll()
            .where('request_id', 'in', ids)
            .execute()
        : []
    return new Map(rows.map((row) => [row.request_id, toWhatsAppRoute(row, sent)]))
  }

  /**
   * Takes up to `limit` jobs of one channel that are due and held by nobody (its notices first,
   * then the requests' deliveries, oldest due first) and holds them for `leaseMs`: a worker that
   * dies lets them go when it ends. With several servers on PostgreSQL each is taken by one of
   * them (FOR UPDATE SKIP LOCKED). A probe of a failing channel takes one, due or not.
   */
  async claimJobs(
    channel: Channel,
    limit: number,
    leaseMs: number,
    { probe = false }: { probe?: boolean } = {},
  ): Promise<Job[]> {
    const now = Date.now()
    const lockedUntil = now + leaseMs
    return this.transact(async (trx) => {
      let notices = trx
        .selectFrom('lead_notices')
        .selectAll()
        .where('state', '=', 'pending')
        .where('carrier', '=', channel)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
      if (!probe) notices = notices.where('next_attempt_at', '<=', now)
      if (this.kind === 'postgres') notices = notices.forUpdate().skipLocked()
      const noticeRows = await notices.execute()
      for (const row of noticeRows) {
        await trx
          .updateTable('lead_notices')
          .set({ locked_until: lockedUntil })
          .where('id', '=', row.id)
          .execute()
      }
      const jobs: Job[] = noticeRows.map((row) => ({ kind: 'notice', notice: toNotice(row) }))
      if (jobs.length >= limit) return jobs

      let due = trx
        .selectFrom('lead_deliveries')
        .selectAll()
        .where('state', '=', 'pending')
        .where('channel', '=', channel)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit - jobs.length)
      if (!probe) due = due.where('next_attempt_at', '<=', now)
      if (this.kind === 'postgres') due = due.forUpdate().skipLocked()
      const rows = await due.execute()
      if (rows.length === 0) return jobs
      for (const row of rows) {
        await trx
          .updateTable('lead_deliveries')
          .set({ locked_until: lockedUntil })
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
      const routes = await this.whatsAppRoutes(
        rows.map((row) => row.request_id),
        { messages: false },
        trx,
      )
      for (const row of rows) {
        jobs.push({
          kind: 'request',
          delivery: toDelivery(row),
          record: byId.get(row.request_id)!,
          whatsapp: routes.get(row.request_id) ?? null,
        })
      }
      return jobs
    })
  }

  /** Holds jobs in progress for `leaseMs` more: a worker that stops extending lets them go. */
  async extendLeases(jobs: readonly JobRef[], leaseMs: number): Promise<void> {
    const until = Date.now() + leaseMs
    for (const job of jobs) {
      if (job.kind === 'notice') {
        await this.db
          .updateTable('lead_notices')
          .set({ locked_until: until })
          .where('id', '=', job.id)
          .where('state', '=', 'pending')
          .execute()
      } else {
        await this.db
          .updateTable('lead_deliveries')
          .set({ locked_until: until })
          .where('request_id', '=', job.requestId)
          .where('channel', '=', job.channel)
          .where('state', '=', 'pending')
          .execute()
      }
    }
  }

  /** The job was sent: delivered (to every recipient, for a mail). */
  async markDelivered(job: JobRef, note: string | null = null) {
    await this.settle(job, {
      state: 'delivered',
      delivered_at: new Date().toISOString(),
      last_error: note,
    })
  }

  /** A fault of the job's own that may pass: tried again at `nextAttemptAt`. */
  async markRetry(job: JobRef, nextAttemptAt: number, error: string) {
    await this.settle(job, { state: 'pending', next_attempt_at: nextAttemptAt, last_error: error })
  }

  /** A fault of the job's own that will not pass: a dead letter. */
  async markFailed(job: JobRef, error: string) {
    await this.settle(job, { state: 'failed', last_error: error })
  }

  /**
   * The channel failed, not the job: it stays pending as it was, its attempts uncounted, until
   * the channel works again.
   */
  async putBack(job: JobRef, error: string | null) {
    await this.settle(job, error === null ? {} : { last_error: error }, { countAttempt: false })
  }

  /** Records who took a mail and who refused it for good, as the recipients answer. */
  async recordRecipients(job: JobRef, done: readonly string[], refused: readonly string[]) {
    if (job.kind !== 'request') return
    await this.db
      .updateTable('lead_deliveries')
      .set({
        done_recipients: done.length > 0 ? JSON.stringify(done) : null,
        refused_recipients: refused.length > 0 ? JSON.stringify(refused) : null,
      })
      .where('request_id', '=', job.requestId)
      .where('channel', '=', job.channel)
      .execute()
  }

  private async settle(
    job: JobRef,
    changes: { state?: DeliveryState; next_attempt_at?: number } & {
      last_error?: string | null
      delivered_at?: string
    },
    { countAttempt = true }: { countAttempt?: boolean } = {},
  ) {
    if (job.kind === 'notice') {
      await this.db
        .updateTable('lead_notices')
        .set((eb) => ({
          ...changes,
          locked_until: null,
          ...(countAttempt && { attempts: eb('attempts', '+', 1) }),
        }))
        .where('id', '=', job.id)
        .execute()
      return
    }
    await this.db
      .updateTable('lead_deliveries')
      .set((eb) => ({
        ...changes,
        locked_until: null,
        ...(countAttempt && { attempts: eb('attempts', '+', 1) }),
      }))
      .where('request_id', '=', job.requestId)
      .where('channel', '=', job.channel)
      .execute()
  }

  /**
   * Sends a request's failed deliveries again (all of them with no id), as new: they are tried
   * at once and retried for up to three days more; a mail goes to the recipients that have not
   * taken it yet. Returns how many were queued.
   */
  async resendFailed(requestId?: string): Promise<number> {
    const now = Date.now()
    let update = this.db
      .updateTable('lead_deliveries')
      .set({
        state: 'pending',
        attempts: 0,
        next_attempt_at: now,
        retry_until: now + RETRY_FOR_MS,
        queued_at: now,
        locked_until: null,
        refused_recipients: null,
      })
      .where('state', '=', 'failed')
    if (requestId !== undefined) update = update.where('request_id', '=', requestId)
    const result = await update.executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** Puts back deliveries and notices a stopped worker of this store still held (SQLite: one server). */
  async releaseHeld(): Promise<void> {
    await this.db
      .updateTable('lead_deliveries')
      .set({ locked_until: null })
      .where('locked_until', 'is not', null)
      .execute()
    await this.db
      .updateTable('lead_notices')
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
  protected override transact<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
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
    options.onSqliteOpen?.(sqlite)
  } catch (error) {
    await store.close().catch(() => undefined)
    throw error instanceof StoreError
      ? error
      : new StoreError(`DATA_DIR ${target.dataDir}: ${message(error)}`)
  }
  return store
}
