// The delivery queue in the store: workers take due deliveries and notices of one channel on
// a lease, extend it while they send, and settle each job as it went.
import type { Kysely } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import type { Dialect } from './dialect.js'
import {
  toDelivery,
  toNotice,
  toRecord,
  whatsAppRoutes,
  type Delivery,
  type Notice,
  type WhatsAppRoute,
} from './records.js'
import { queuedAnew, type Channel, type DeliveryState, type LeadDatabase } from './schema.js'

type Db = Kysely<LeadDatabase>

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
  { kind: 'request'; requestId: string; channel: Channel } | { kind: 'notice'; id: string }

export const jobRef = (job: Job): JobRef =>
  job.kind === 'request'
    ? { kind: 'request', requestId: job.record.id, channel: job.delivery.channel }
    : { kind: 'notice', id: job.notice.id }

/** Due jobs of `channel` (any, for a probe), held by nobody, leased for `leaseMs`. */
export function claimJobs(
  dialect: Dialect,
  channel: Channel,
  limit: number,
  leaseMs: number,
  { probe = false }: { probe?: boolean } = {},
): Promise<Job[]> {
  const now = Date.now()
  const lockedUntil = now + leaseMs
  return dialect.transact(async (trx) => {
    let notices = trx
      .selectFrom('lead_notices')
      .selectAll()
      .where('state', '=', 'pending')
      .where('carrier', '=', channel)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit)
    if (!probe) notices = notices.where('next_attempt_at', '<=', now)
    if (dialect.kind === 'postgres') notices = notices.forUpdate().skipLocked()
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
    if (dialect.kind === 'postgres') due = due.forUpdate().skipLocked()
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
    const routes = await whatsAppRoutes(
      trx,
      rows.map((row) => row.request_id),
      { messages: false },
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

/** Holds the jobs for `leaseMs` more, while they are pending. */
export async function extendLeases(
  db: Db,
  jobs: readonly JobRef[],
  leaseMs: number,
): Promise<void> {
  const until = Date.now() + leaseMs
  for (const job of jobs) {
    if (job.kind === 'notice') {
      await db
        .updateTable('lead_notices')
        .set({ locked_until: until })
        .where('id', '=', job.id)
        .where('state', '=', 'pending')
        .execute()
    } else {
      await db
        .updateTable('lead_deliveries')
        .set({ locked_until: until })
        .where('request_id', '=', job.requestId)
        .where('channel', '=', job.channel)
        .where('state', '=', 'pending')
        .execute()
    }
  }
}

/** Ends the job's lease with `changes`, counting the attempt unless told not to. */
export async function settle(
  db: Db,
  job: JobRef,
  changes: { state?: DeliveryState; next_attempt_at?: number } & {
    last_error?: string | null
    delivered_at?: string
  },
  { countAttempt = true }: { countAttempt?: boolean } = {},
): Promise<void> {
  if (job.kind === 'notice') {
    await db
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
  await db
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

export async function recordRecipients(
  db: Db,
  job: JobRef,
  done: readonly string[],
  refused: readonly string[],
): Promise<void> {
  if (job.kind !== 'request') return
  await db
    .updateTable('lead_deliveries')
    .set({
      done_recipients: done.length > 0 ? JSON.stringify(done) : null,
      refused_recipients: refused.length > 0 ? JSON.stringify(refused) : null,
    })
    .where('request_id', '=', job.requestId)
    .where('channel', '=', job.channel)
    .execute()
}

export async function resendFailed(db: Db, requestId?: string): Promise<number> {
  const now = Date.now()
  let update = db
    .updateTable('lead_deliveries')
    .set({ ...queuedAnew(now), refused_recipients: null })
    .where('state', '=', 'failed')
  if (requestId !== undefined) update = update.where('request_id', '=', requestId)
  const result = await update.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Ends every lease, of deliveries and notices alike. */
export async function releaseLeases(db: Db): Promise<void> {
  await db
    .updateTable('lead_deliveries')
    .set({ locked_until: null })
    .where('locked_until', 'is not', null)
    .execute()
  await db
    .updateTable('lead_notices')
    .set({ locked_until: null })
    .where('locked_until', 'is not', null)
    .execute()
}
