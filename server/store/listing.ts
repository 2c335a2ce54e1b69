// Reading stored requests for people: one by its id, how many, or all of them page by page.
import type { Kysely } from 'kysely'
import { toDelivery, toRecord, whatsAppRoutes, type StoredRequest } from './records.js'
import type { LeadDatabase, RequestsTable } from './schema.js'

export interface RequestFilter {
  oldestFirst?: boolean
  failedOnly?: boolean
  held?: boolean
}

/** Requests with their deliveries, newest first (oldest first with `oldestFirst`), in pages. */
export async function* requests(
  db: Kysely<LeadDatabase>,
  filter: RequestFilter,
  pageSize: number,
): AsyncGenerator<StoredRequest> {
  const direction = filter.oldestFirst === true ? 'asc' : 'desc'
  let after: { receivedAt: string; id: string } | null = null
  for (;;) {
    let query = db
      .selectFrom('lead_requests')
      .selectAll()
      .orderBy('received_at', direction)
      .orderBy('id', direction)
      .limit(pageSize)
    if (filter.failedOnly === true) {
      query = query.where('id', 'in', (sub) =>
        sub
          .selectFrom('lead_jobs')
          .select('request_id')
          .where('kind', '=', 'delivery')
          .where('state', '=', 'failed'),
      )
    }
    if (filter.held !== undefined) query = query.where('held', '=', filter.held ? 1 : 0)
    if (after !== null) {
      const { receivedAt, id } = after
      const beyond = direction === 'asc' ? '>' : '<'
      // One row-value comparison, which both dialects read as a range of the index on
      // (received_at, id) (or held, received_at, id): a page starts where the last one ended
      // instead of walking past every row before it.
      query = query.where((eb) =>
        eb(eb.refTuple('received_at', 'id'), beyond, eb.tuple(receivedAt, id)),
      )
    }
    const rows = await query.execute()
    if (rows.length === 0) return
    yield* await withDeliveries(db, rows)
    const last = rows[rows.length - 1]!
    after = { receivedAt: last.received_at, id: last.id }
    if (rows.length < pageSize) return
  }
}

export async function request(db: Kysely<LeadDatabase>, id: string): Promise<StoredRequest | null> {
  const rows = await db.selectFrom('lead_requests').selectAll().where('id', '=', id).execute()
  return (await withDeliveries(db, rows))[0] ?? null
}

/** The rows as stored requests, with their deliveries and WhatsApp routes. */
async function withDeliveries(
  db: Kysely<LeadDatabase>,
  rows: readonly RequestsTable[],
): Promise<StoredRequest[]> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const deliveries = await db
    .selectFrom('lead_jobs')
    .selectAll()
    .where('kind', '=', 'delivery')
    .where('request_id', 'in', ids)
    .orderBy('channel')
    .execute()
  const routes = await whatsAppRoutes(db, ids)
  const meetings = await db
    .selectFrom('lead_meetings')
    .selectAll()
    .where('request_id', 'in', ids)
    .execute()
  return rows.map((row) => {
    const meeting = meetings.find((each) => each.request_id === row.id)
    return {
      ...toRecord(row),
      deliveries: deliveries.filter((d) => d.request_id === row.id).map(toDelivery),
      whatsapp: routes.get(row.id) ?? null,
      held: row.held === 1,
      meeting:
        meeting === undefined
          ? null
          : { start: Number(meeting.start_at), end: Number(meeting.end_at), rep: meeting.rep },
    }
  })
}

export async function count(db: Kysely<LeadDatabase>): Promise<number> {
  const { count } = await db
    .selectFrom('lead_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}
