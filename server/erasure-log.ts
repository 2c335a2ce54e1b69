// The record of erasures: when requests were erased, how many (with how many deliveries), and by
// which rule, so the business can show that it answered a person or applied its retention
// period. It holds no personal data: no name, address, phone, message, nor a request's id (the
// id is printed in the mails, so it would point back at the person).
import { randomUUID } from 'node:crypto'
import { SqliteAdapter, sql, type Kysely, type Migration } from 'kysely'
import type { LeadStore } from './lead-store.js'

/** Why requests were erased: a person asked (ARCO, GDPR art. 17), or they outlived retention. */
export type ErasureRule = 'person-request' | 'retention'

/** How the sales team reads each rule. */
export const RULE_LABELS: Record<ErasureRule, string> = {
  'person-request': 'solicitud de la persona',
  retention: 'retención',
}

interface ErasuresTable {
  id: string
  erased_at: string
  rule: ErasureRule
  requests: number
  deliveries: number
}

/** The store's own tables (lead-store.ts), and the one this module adds. */
type StoreSchema = LeadStore['db'] extends Kysely<infer Tables> ? Tables : never
type ErasuresSchema = { lead_erasures: ErasuresTable }

interface Erasure {
  erasedAt: string
  rule: ErasureRule
  requests: number
  deliveries: number
}

/**
 * Migration 030-erasures: the table; on SQLite also one VACUUM, with secure_delete on (lead-store.ts),
 * so that nothing a store written before this version left in its free space (stale copies of
 * rows that B-tree balancing moved) can outlive an erasure.
 */
export const erasuresMigration: Migration = {
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

/** Writes the record of one erasure, in the erasure's own transaction. */
export async function recordErasure(trx: Kysely<StoreSchema>, erasure: Erasure): Promise<void> {
  await trx
    .withTables<ErasuresSchema>()
    .insertInto('lead_erasures')
    .values({
      id: randomUUID(),
      erased_at: erasure.erasedAt,
      rule: erasure.rule,
      requests: erasure.requests,
      deliveries: erasure.deliveries,
    })
    .execute()
}

/** Every recorded erasure, newest first. */
export async function erasures(db: Kysely<StoreSchema>): Promise<Erasure[]> {
  const rows = await db
    .withTables<ErasuresSchema>()
    .selectFrom('lead_erasures')
    .selectAll()
    .orderBy('erased_at', 'desc')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    erasedAt: row.erased_at,
    rule: row.rule,
    requests: Number(row.requests),
    deliveries: Number(row.deliveries),
  }))
}
