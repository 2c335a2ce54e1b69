// Migration 060: the door's Idempotency-Keys (idempotency-keys.ts reads and writes them).
import type { Kysely, Migration } from 'kysely'

/**
 * One row per key a page sent: a hash of the request it came with, never the request, and the
 * answer it got, which names no person. It points at the stored request, so that erasing the
 * request (a person's erasure, the retention job) takes its key with it.
 */
export const idempotencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_idempotency_keys')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('fingerprint', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('claimed_until', 'bigint')
      .addColumn('status', 'integer')
      .addColumn('answer', 'text')
      .addColumn('request_id', 'text', (column) =>
        column.references('lead_requests.id').onDelete('cascade'),
      )
      .execute()
    await db.schema
      .createIndex('lead_idempotency_keys_created_at')
      .on('lead_idempotency_keys')
      .column('created_at')
      .execute()
    await db.schema
      .createIndex('lead_idempotency_keys_request_id')
      .on('lead_idempotency_keys')
      .column('request_id')
      .execute()
  },
}
