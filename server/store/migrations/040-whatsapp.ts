// Migration 040: the WhatsApp routes: turns, each request's reps, each message's statuses.
import type { Kysely, Migration } from 'kysely'

export const whatsapp: Migration = {
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
