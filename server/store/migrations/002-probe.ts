// Migration 002: where readiness writes a probe after a failed write (never a request).
import type { Kysely, Migration } from 'kysely'

export const probe: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_probe')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('data', 'text', (column) => column.notNull())
      .execute()
  },
}
