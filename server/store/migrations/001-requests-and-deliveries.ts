// Migration 001: the requests, and one delivery per request and channel.
import type { Kysely, Migration } from 'kysely'

export const requestsAndDeliveries: Migration = {
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
}
