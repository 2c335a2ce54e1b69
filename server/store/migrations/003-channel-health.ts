// Migration 003: how each channel delivers, the notices about it, who took each mail.
// A migration is frozen: the values it uses are written here as they were when it was made, so
// that a later change to the live constants never changes what it did.
import { sql, type Kysely, type Migration } from 'kysely'

/** Three days: how long a delivery was retried when this migration was written (RETRY_FOR_MS then). */
const RETRY_FOR_MS_THEN = 259_200_000

export const channelHealth: Migration = {
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
    await sql`update lead_deliveries set queued_at = retry_until - ${RETRY_FOR_MS_THEN}`.execute(db)
  },
}
