// Migration 070 (decisions 021 and 024): a job remembers when it last met a fault that looked
// like its channel's (lead_jobs.faulted_at), so that a probe of a held channel takes the jobs in
// turn and a fault one job keeps meeting while others go through stays that job's; each pending
// WhatsApp escalation, a deadline on its message until now, becomes a job of lead_jobs in a lane
// of its own; and a status that came before its message's id is kept once (a unique key), not
// once per post.
import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely'

async function migrate(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_jobs').addColumn('faulted_at', 'bigint').execute()

  // The deadlines today's main polls for (store/whatsapp.ts dueUnread, at 9ac9d2a): a message
  // not moved on, not read, still its request's step, in a round not exhausted. Each becomes one
  // pending job, due at its deadline; the job's id names the request and the step, so it is
  // written once, and the move it makes is compared with the step as before.
  await sql`
    insert into lead_jobs (id, kind, channel, request_id, state, attempts, next_attempt_at,
      retry_until, queued_at, locked_until, last_error, delivered_at, once_key, payload, progress,
      faulted_at)
    select m.request_id || '/escalation/' || m.step, 'escalation', 'escalation', m.request_id,
      'pending', 0, m.escalate_at, null, coalesce(m.sent_at, m.escalate_at), null, null, null,
      null, '{"step":' || m.step || '}', null, null
    from lead_whatsapp_messages m
    join lead_whatsapp w on w.request_id = m.request_id
    where m.escalate_at is not null and m.moved_on_at is null and m.read_at is null
      and w.step = m.step and w.exhausted_at is null
  `.execute(db)

  // One row per message and status, its earliest time: the same post twice stores it once.
  await db.schema
    .createTable('lead_whatsapp_early_statuses_once')
    .addColumn('wamid', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .addColumn('failure', 'text')
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('lead_whatsapp_early_statuses_once_key', ['wamid', 'status'])
    .execute()
  await sql`
    insert into lead_whatsapp_early_statuses_once (wamid, status, at, failure, received_at)
    select wamid, status, min(at), max(failure), min(received_at)
    from lead_whatsapp_early_statuses group by wamid, status
  `.execute(db)
  await db.schema.dropTable('lead_whatsapp_early_statuses').execute()
  await db.schema
    .alterTable('lead_whatsapp_early_statuses_once')
    .renameTo('lead_whatsapp_early_statuses')
    .execute()
}

export const faultsAndEscalations: Migration = {
  async up(db: Kysely<unknown>) {
    // As 050: SQLite runs migrations outside a transaction, so this one makes its own.
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await db.transaction().execute((trx) => migrate(trx))
    } else await migrate(db)
  },
}
