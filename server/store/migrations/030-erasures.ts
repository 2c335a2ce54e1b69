// Migration 030: the record of erasures (erasure-log.ts reads and writes it).
import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely'

/**
 * The table; on SQLite also one VACUUM, with secure_delete on (lead-store-sqlite.ts), so that
 * nothing a store written before this version left in its free space (stale copies of rows
 * that B-tree balancing moved) can outlive an erasure.
 */
export const erasureLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_erasures')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('erased_at', 'text', (column) => column.notNull())
      .addColumn('rule', 'text', (column) => column.notNull())
      .addColumn('requests', 'integer', (column) => column.notNull())
      .addColumn('deliveries', 'integer', (column) => column.notNull())
      .execute()
    await db.schema
      .createIndex('lead_erasures_erased_at')
      .on('lead_erasures')
      .column('erased_at')
      .execute()
    // SQLite runs migrations outside a transaction, where VACUUM may run; PostgreSQL never
    // gets here.
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`vacuum`.execute(db)
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
    }
  },
}
