// Storing requests: each with its deliveries in one transaction;
// held ones within their cap, until released or erased; imported ones with no deliveries.
import { sql, type Kysely } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import type { Capacity } from './capacity.js'
import type { Dialect } from './dialect.js'
import { deliveryJobs } from './queue.js'
import { fromRecord } from './records.js'
import { queuedAnew, type Channel, type LeadDatabase } from './schema.js'
import { assignRoute, type RouteChoice } from './whatsapp.js'

/** The WhatsApp route a request is stored with, in its own transaction (its rep's turn). */
export type RouteFor = (record: DemoRequestRecord) => RouteChoice

/** What else is written with a request, in its own transaction (the door's key and its answer). */
export type AlsoWrite = (trx: Kysely<LeadDatabase>, record: DemoRequestRecord) => Promise<void>

/**
 * Stores a request and one delivery per channel (held when `holdCap` is a number, within that
 * cap); rejects with an StoreWriteError, storing nothing, when it cannot. Readiness is checked after.
 */
export async function writeRequest(
  dialect: Dialect,
  capacity: Capacity,
  record: DemoRequestRecord,
  channels: readonly Channel[],
  holdCap: number | null,
  routeFor: RouteFor | undefined,
  alsoWrite?: AlsoWrite,
): Promise<{ outcome: 'stored' | 'already-stored' | 'cap-reached'; heldBefore: number }> {
  const held = holdCap !== null
  let heldBefore = 0
  const row = fromRecord(record, held)
  let used = 0
  try {
    used = await capacity.admit(Buffer.byteLength(JSON.stringify(row)))
    const outcome = await dialect.transact(async (trx) => {
      if (holdCap !== null) {
        // Servers sharing PostgreSQL count one after another, so the cap holds for them all.
        if (dialect.kind === 'postgres') {
          await sql`select pg_advisory_xact_lock(hashtext('gaspre-held-requests'))`.execute(trx)
        }
        heldBefore = await countHeld(trx)
        if (heldBefore >= holdCap) return 'cap-reached' as const
      }
      const result = await trx
        .insertInto('lead_requests')
        .values(row)
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst()
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return 'already-stored' as const
      if (channels.length > 0) {
        await trx
          .insertInto('lead_jobs')
          .values(deliveryJobs(record.id, channels, held ? 'held' : 'pending', Date.now()))
          .execute()
      }
      if (routeFor !== undefined) await assignRoute(trx, record.id, routeFor(record))
      await alsoWrite?.(trx, record)
      return 'stored' as const
    })
    capacity.written()
    return { outcome, heldBefore }
  } catch (error) {
    throw capacity.failed(error, used)
  } finally {
    await capacity.readiness()
  }
}

/** How many requests are held now. */
export async function countHeld(db: Kysely<LeadDatabase>): Promise<number> {
  const { count } = await db
    .selectFrom('lead_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('held', '=', 1)
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** Lets held requests go (one by its id, or all); resolves to how many were released. */
export function releaseHeldRequests(dialect: Dialect, requestId?: string): Promise<number> {
  return dialect.transact(async (trx) => {
    const now = Date.now()
    let held = trx.selectFrom('lead_requests').select('id').where('held', '=', 1)
    if (requestId !== undefined) held = held.where('id', '=', requestId)
    await trx
      .updateTable('lead_jobs')
      // Queued now: how long it waited held is no delivery's delay (/healthz/delivery).
      .set(queuedAnew(now))
      .where('kind', '=', 'delivery')
      .where('state', '=', 'held')
      .where('request_id', 'in', held)
      .execute()
    let release = trx.updateTable('lead_requests').set({ held: 0 }).where('held', '=', 1)
    if (requestId !== undefined) release = release.where('id', '=', requestId)
    return Number((await release.executeTakeFirst()).numUpdatedRows)
  })
}

/** Stores requests with no deliveries in one transaction; resolves to how many were new. */
export async function importRecords(
  dialect: Dialect,
  records: readonly DemoRequestRecord[],
): Promise<number> {
  if (records.length === 0) return 0
  return dialect.transact(async (trx) => {
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
