// Migration 050: deliveries and notices become jobs of one table, lead_jobs (decision 021).
// Every row moves over in its state, with its attempts, lease, error and recipients: a pending
// job stays pending, a delivered, failed or held one stays so, and nothing is queued anew, so
// nothing goes out twice. The two old tables go, so that a server of the old version still
// running on the same PostgreSQL fails its queries instead of sending a job a second time.
import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely'

/** Three days, as RETRY_FOR_MS was when migration 003 ran (a migration keeps its own values). */
const OLD_RETRY_FOR_MS = 259_200_000

async function moveToJobs(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('lead_jobs')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('request_id', 'text', (column) =>
      column.references('lead_requests.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
    .addColumn('retry_until', 'bigint')
    .addColumn('queued_at', 'bigint', (column) => column.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('once_key', 'text')
    .addColumn('payload', 'text')
    .addColumn('progress', 'text')
    .execute()
  // The claim, in its order: a lane's pending jobs, notices first, then the oldest due. Read in
  // the index's order, a claim stops at its limit instead of sorting every waiting job.
  await db.schema
    .createIndex('lead_jobs_due')
    .on('lead_jobs')
    .columns(['channel', 'state', 'kind desc', 'next_attempt_at'])
    .execute()
  await db.schema.createIndex('lead_jobs_request').on('lead_jobs').column('request_id').execute()
  // One notice of each type, subject and outage per carrier, also with several servers.
  await db.schema
    .createIndex('lead_jobs_once')
    .on('lead_jobs')
    .columns(['channel', 'once_key'])
    .unique()
    .execute()

  // Both dialects concatenate with || and turn a number into text on their own.
  await sql`
    insert into lead_jobs (id, kind, channel, request_id, state, attempts, next_attempt_at,
      retry_until, queued_at, locked_until, last_error, delivered_at, once_key, payload, progress)
    select request_id || '/' || channel, 'delivery', channel, request_id, state, attempts,
      next_attempt_at, retry_until, coalesce(queued_at, retry_until - ${OLD_RETRY_FOR_MS}),
      locked_until, last_error, delivered_at, null, null,
      case when done_recipients is null and refused_recipients is null then null
        else '{"done":' || coalesce(done_recipients, '[]') ||
          ',"refused":' || coalesce(refused_recipients, '[]') || '}' end
    from lead_deliveries
  `.execute(db)
  // A notice's type and subject are names of ours (no quote in them); its data is JSON already.
  // A WhatsApp notice names its request, so that erasing the request erases the notice too.
  const named =
    dialect === 'sqlite'
      ? sql`json_extract(lead_notices.data, '$.unread.requestId')`
      : sql`(lead_notices.data::json #>> '{unread,requestId}')`
  await sql`
    insert into lead_jobs (id, kind, channel, request_id, state, attempts, next_attempt_at,
      retry_until, queued_at, locked_until, last_error, delivered_at, once_key, payload, progress)
    select id, 'notice', carrier,
      case when exists (select 1 from lead_requests where lead_requests.id = ${named}) then ${named} end, state, attempts, next_attempt_at, null, next_attempt_at,
      locked_until, last_error, delivered_at, type || '/' || subject || '/' || outage,
      '{"type":"' || type || '","subject":"' || subject || '","createdAt":"' || created_at ||
        '","data":' || data || '}',
      null
    from lead_notices
  `.execute(db)
  await db.schema.dropTable('lead_deliveries').execute()
  await db.schema.dropTable('lead_notices').execute()
}

export const oneJobQueue: Migration = {
  async up(db: Kysely<unknown>) {
    // PostgreSQL runs each migration in a transaction; SQLite runs them outside one, so this
    // one makes its own: a move cut halfway leaves the old tables as they were.
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await db.transaction().execute((trx) => moveToJobs(trx, 'sqlite'))
    } else await moveToJobs(db, 'postgres')
  },
}
