// The job queue in the store (decision 021): every delivery of a request and every notice is a
// row of lead_jobs, and each operation on a job is written once, whatever the job carries. A
// lane of the worker claims the due jobs of its channel on a lease, renews it while it sends,
// and settles each job as it went: delivered, retried later, put back (the channel failed, not
// the job) or a dead letter. With several servers on PostgreSQL each job is claimed by one of
// them (FOR UPDATE SKIP LOCKED); on SQLite one server writes at a time.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import type { Dialect } from './dialect.js'
import {
  recipients,
  toDelivery,
  toNotice,
  toRecord,
  whatsAppRoutes,
  type Delivery,
  type Notice,
  type NoticeData,
  type NoticePayload,
  type WhatsAppRoute,
} from './records.js'
import {
  deliveryJobId,
  escalationJobId,
  queuedAnew,
  type Channel,
  type DeliveryState,
  type JobsTable,
  type LeadDatabase,
  type NoticeType,
  type Watched,
} from './schema.js'

type Db = Kysely<LeadDatabase>

/** Holds the jobs a worker took until `until`: no other claim takes them before then. */
async function lease(trx: Db, jobs: readonly { id: string }[], until: number): Promise<void> {
  const ids = jobs.map((job) => job.id)
  await trx.updateTable('lead_jobs').set({ locked_until: until }).where('id', 'in', ids).execute()
}

/** Something a worker sends through one channel: a request's delivery, or a notice. */
export type Job =
  | {
      kind: 'request'
      delivery: Delivery
      record: DemoRequestRecord
      whatsapp: WhatsAppRoute | null
    }
  | { kind: 'notice'; notice: Notice }

/** Which job a result is for. */
export type JobRef =
  | { kind: 'request'; requestId: string; channel: Channel }
  | { kind: 'notice'; id: string }
  | { kind: 'escalation'; requestId: string; step: number }

export const jobRef = (job: Job): JobRef =>
  job.kind === 'request'
    ? { kind: 'request', requestId: job.record.id, channel: job.delivery.channel }
    : { kind: 'notice', id: job.notice.id }

const jobId = (ref: JobRef): string =>
  ref.kind === 'request'
    ? deliveryJobId(ref.requestId, ref.channel)
    : ref.kind === 'escalation'
      ? escalationJobId(ref.requestId, ref.step)
      : ref.id

/** A notice to queue: one per carrier and outage (or per unread message, numbered). */
interface NoticeToQueue {
  type: NoticeType
  subject: Watched
  outage: number
  /** A further notice of the same outage (a flood's held count as it grows): queued once each. */
  step?: number
  data: NoticeData
  /** The request it speaks of, when it names one: erased with it. */
  requestId?: string
  /** What makes it one of a kind instead of the outage (a request's id): one per carrier. */
  once?: string
  /** The whole key, when not made of type, subject and outage (a meeting's: its sequence). */
  onceKey?: string
}

/** The rows of a request's deliveries as it is stored: pending, or held in a flood. */
export function deliveryJobs(
  requestId: string,
  channels: readonly Channel[],
  state: 'pending' | 'held',
  now: number,
): JobsTable[] {
  return channels.map((channel) => ({
    ...queuedAnew(now),
    id: deliveryJobId(requestId, channel),
    kind: 'delivery',
    channel,
    request_id: requestId,
    state,
    last_error: null,
    delivered_at: null,
    once_key: null,
    payload: null,
    progress: null,
  }))
}

/**
 * Queues one notice per carrier, in the caller's transaction or not; one already queued for
 * that outage and carrier is left as it is.
 */
export async function insertNotices(
  db: Db,
  notice: NoticeToQueue,
  carriers: readonly Channel[],
): Promise<void> {
  if (carriers.length === 0) return
  const now = Date.now()
  const createdAt = new Date(now).toISOString()
  await db
    .insertInto('lead_jobs')
    .values(
      carriers.map((carrier) => ({
        id: randomUUID(),
        kind: 'notice' as const,
        channel: carrier,
        request_id: notice.requestId ?? null,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        retry_until: null,
        queued_at: now,
        locked_until: null,
        last_error: null,
        delivered_at: null,
        once_key:
          notice.onceKey ??
          `${notice.type}/${notice.subject}/${notice.once ?? notice.outage}` +
            (notice.step === undefined ? '' : `/${notice.step}`),
        payload: JSON.stringify({
          type: notice.type,
          subject: notice.subject,
          createdAt,
          data: notice.data,
        } satisfies NoticePayload),
        progress: null,
        faulted_at: null,
      })),
    )
    .onConflict((conflict) => conflict.columns(['channel', 'once_key']).doNothing())
    .execute()
}

/**
 * The escalation of a request's WhatsApp message of `step`, due at `dueAt`: a job of its own
 * lane, written with the message's id in one transaction (store/whatsapp.ts recordSent).
 */
export function escalationJob(requestId: string, step: number, dueAt: number): JobsTable {
  return {
    id: escalationJobId(requestId, step),
    kind: 'escalation',
    channel: 'escalation',
    request_id: requestId,
    state: 'pending',
    attempts: 0,
    next_attempt_at: dueAt,
    retry_until: null,
    queued_at: Date.now(),
    locked_until: null,
    last_error: null,
    delivered_at: null,
    once_key: null,
    payload: JSON.stringify({ step }),
    progress: null,
    faulted_at: null,
  }
}

/** An escalation the worker took: the request and the step of the message it escalates. */
interface Escalation {
  requestId: string
  step: number
}

/** What waits on a channel, and what failed for good there. */
export interface ChannelBacklog {
  /** Deliveries of requests waiting on the channel (held ones excluded). */
  pending: number
  /** When the longest-waiting of them was queued (ms since the epoch); null when none wait. */
  oldestQueuedAt: number | null
  /** Dead letters of the channel. */
  failed: number
}

/** What a job's columns become as a worker settles it. */
type Settlement = {
  state?: DeliveryState
  next_attempt_at?: number
  last_error?: string | null
  delivered_at?: string
  faulted_at?: number
}

export class JobQueue {
  /** @internal LeadStore makes one */
  constructor(private readonly dialect: Dialect) {}

  private get db(): Db {
    return this.dialect.db
  }

  /**
   * Takes up to `limit` jobs of one channel that are due and held by nobody (notices first,
   * then the requests' deliveries, oldest due first) and holds them for `leaseMs`: a worker
   * that dies lets them go when it ends. With several servers on PostgreSQL each is taken by
   * one of them (FOR UPDATE SKIP LOCKED). A probe of a held channel takes the due jobs in turn
   * (decision 024): first those that met no fault of the channel, then the one that met it
   * longest ago, so one job that keeps failing never takes every probe.
   */
  claim(
    channel: Channel,
    limit: number,
    leaseMs: number,
    { probe = false }: { probe?: boolean } = {},
  ): Promise<Job[]> {
    const now = Date.now()
    return this.dialect.transact(async (trx) => {
      let due = trx
        .selectFrom('lead_jobs')
        .selectAll()
        .where('channel', '=', channel)
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .where('next_attempt_at', '<=', now)
      // A probe reads the lane's due jobs in turn: it takes one, seldom, so a sort costs little.
      if (probe) due = due.orderBy(sql`coalesce(faulted_at, 0)`)
      // 'notice' sorts after 'delivery': notices go first, they speak of the others.
      due = due.orderBy('kind', 'desc').orderBy('next_attempt_at').limit(limit)
      if (this.dialect.kind === 'postgres') due = due.forUpdate().skipLocked()
      const rows = await due.execute()
      if (rows.length === 0) return []
      await lease(trx, rows, now + leaseMs)
      const requestIds = rows.flatMap((row) => (row.kind === 'delivery' ? [row.request_id!] : []))
      const requests =
        requestIds.length === 0
          ? []
          : await trx
              .selectFrom('lead_requests')
              .selectAll()
              .where('id', 'in', requestIds)
              .execute()
      const records = new Map(requests.map((request) => [request.id, toRecord(request)]))
      const routes = await whatsAppRoutes(trx, requestIds, { messages: false })
      return rows.map((row): Job => {
        if (row.kind === 'notice') return { kind: 'notice', notice: toNotice(row) }
        const requestId = row.request_id!
        return {
          kind: 'request',
          delivery: toDelivery(row),
          record: records.get(requestId)!,
          whatsapp: routes.get(requestId) ?? null,
        }
      })
    })
  }

  /** Holds jobs in progress for `leaseMs` more, while they are pending. */
  async extendLeases(jobs: readonly JobRef[], leaseMs: number): Promise<void> {
    // One `in (…)` list, never longer than the lanes are wide (as the claim's): SQLite keeps a
    // bounded number of SQL texts prepared (sqlite-connections.ts).
    if (jobs.length === 0) return
    await this.db
      .updateTable('lead_jobs')
      .set({ locked_until: Date.now() + leaseMs })
      .where('id', 'in', jobs.map(jobId))
      .where('state', '=', 'pending')
      .execute()
  }

  /** Ends the job's lease with `changes`, counting the attempt unless told not to. */
  private async settle(
    job: JobRef,
    changes: Settlement,
    { countAttempt = true }: { countAttempt?: boolean } = {},
  ): Promise<void> {
    await this.db
      .updateTable('lead_jobs')
      .set((eb) => ({
        ...changes,
        locked_until: null,
        ...(countAttempt && { attempts: eb('attempts', '+', 1) }),
      }))
      .where('id', '=', jobId(job))
      .execute()
  }

  /** The job was sent: delivered (to every recipient, for a mail). */
  markDelivered(job: JobRef, note: string | null = null): Promise<void> {
    return this.settle(job, {
      state: 'delivered',
      delivered_at: new Date().toISOString(),
      last_error: note,
    })
  }

  /**
   * A fault of the job's own that may pass: tried again at `nextAttemptAt`. `faulted`: it looked
   * like the channel's, and is the job's because the channel delivered others meanwhile.
   */
  markRetry(
    job: JobRef,
    nextAttemptAt: number,
    error: string,
    { faulted = false }: { faulted?: boolean } = {},
  ): Promise<void> {
    return this.settle(job, {
      state: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: error,
      ...(faulted && { faulted_at: Date.now() }),
    })
  }

  /** A fault of the job's own that will not pass: a dead letter. */
  markFailed(job: JobRef, error: string): Promise<void> {
    return this.settle(job, { state: 'failed', last_error: error })
  }

  /**
   * The channel failed, not the job (`error`), or a stop cut its send (null): it stays pending as
   * it was, its attempts uncounted, until the channel works again. A job that met the channel's
   * fault goes to the back of the probes' turn.
   */
  putBack(job: JobRef, error: string | null): Promise<void> {
    return this.settle(job, error === null ? {} : { last_error: error, faulted_at: Date.now() }, {
      countAttempt: false,
    })
  }

  /** Records who took a mail and who refused it for good, as the recipients answer. */
  async recordRecipients(
    job: JobRef,
    done: readonly string[],
    refused: readonly string[],
  ): Promise<void> {
    if (job.kind !== 'request') return
    await this.db
      .updateTable('lead_jobs')
      .set({
        progress:
          done.length === 0 && refused.length === 0 ? null : JSON.stringify({ done, refused }),
      })
      .where('id', '=', jobId(job))
      .execute()
  }

  /**
   * Sends a request's failed deliveries again (all of them with no id), as new: they are tried
   * at once and retried for up to three days more; a mail goes to the recipients that have not
   * taken it yet. Returns how many were queued.
   */
  resendFailed(requestId?: string): Promise<number> {
    return this.dialect.transact(async (trx) => {
      let failed = trx
        .selectFrom('lead_jobs')
        .select(['id', 'progress'])
        .where('kind', '=', 'delivery')
        .where('state', '=', 'failed')
      if (requestId !== undefined) failed = failed.where('request_id', '=', requestId)
      const rows = await failed.execute()
      for (const row of rows) {
        // Those who refused it are asked again; those who took it are not.
        const { done } = recipients(row.progress)
        await trx
          .updateTable('lead_jobs')
          .set({
            ...queuedAnew(Date.now()),
            progress: done.length === 0 ? null : JSON.stringify({ done, refused: [] }),
          })
          .where('id', '=', row.id)
          .execute()
      }
      return rows.length
    })
  }

  /**
   * Takes up to `limit` escalations due by `dueBy` (the escalation's clock) and held by nobody,
   * and holds them for `leaseMs`; with several servers each is taken by one of them. Their lane
   * is their own: no channel's hold delays them.
   */
  claimEscalations(limit: number, leaseMs: number, dueBy: number): Promise<Escalation[]> {
    const now = Date.now()
    return this.dialect.transact(async (trx) => {
      let due = trx
        .selectFrom('lead_jobs')
        .select(['id', 'request_id', 'payload'])
        .where('channel', '=', 'escalation')
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .where('next_attempt_at', '<=', dueBy)
        .orderBy('kind', 'desc')
        .orderBy('next_attempt_at')
        .limit(limit)
      if (this.dialect.kind === 'postgres') due = due.forUpdate().skipLocked()
      const rows = await due.execute()
      if (rows.length === 0) return []
      await lease(trx, rows, now + leaseMs)
      return rows.map((row) => ({
        requestId: row.request_id!,
        step: (JSON.parse(row.payload!) as { step: number }).step,
      }))
    })
  }

  /** Puts back every job a stopped worker of this store still held (SQLite: one server). */
  async releaseLeases(): Promise<void> {
    await this.db
      .updateTable('lead_jobs')
      .set({ locked_until: null })
      .where('locked_until', 'is not', null)
      .execute()
  }

  /** Queues one notice per carrier; one already queued for that outage is left as it is. */
  queueNotices(notice: NoticeToQueue, carriers: readonly Channel[]): Promise<void> {
    return insertNotices(this.db, notice, carriers)
  }

  /** What waits on each of `channels`, and what failed for good. */
  async backlogs(channels: readonly Channel[]): Promise<Map<Channel, ChannelBacklog>> {
    const backlogs = new Map<Channel, ChannelBacklog>(
      channels.map((channel) => [channel, { pending: 0, oldestQueuedAt: null, failed: 0 }]),
    )
    if (channels.length === 0) return backlogs
    const rows = await this.db
      .selectFrom('lead_jobs')
      .select((eb) => [
        'channel',
        'state',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.min('queued_at').as('oldest'),
      ])
      .where('kind', '=', 'delivery')
      .where('channel', 'in', channels)
      .where('state', 'in', ['pending', 'failed'])
      .groupBy(['channel', 'state'])
      .execute()
    for (const row of rows) {
      // Deliveries only: their lane is a channel.
      const backlog = backlogs.get(row.channel as Channel)!
      if (row.state === 'pending') {
        backlog.pending = Number(row.count)
        backlog.oldestQueuedAt = row.oldest === null ? null : Number(row.oldest)
      } else backlog.failed = Number(row.count)
    }
    return backlogs
  }
}
