// The record of erasures: when requests were erased, how many (with how many deliveries), and by
// which rule, so the business can show that it answered a person or applied its retention
// period. It holds no personal data: no name, address, phone, message, nor a request's id (the
// id is printed in the mails, so it would point back at the person).
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { LeadStore } from '../store/index.js'

/**
 * Why requests were erased: a person asked (ARCO, GDPR art. 17), they outlived retention, or
 * they were held in a flood and someone erased them (`--erase-held`).
 */
export type ErasureRule = 'person-request' | 'retention' | 'held'

/** How the sales team reads each rule. */
export const RULE_LABELS: Record<ErasureRule, string> = {
  'person-request': 'solicitud de la persona',
  retention: 'retención',
  held: 'descarte de las retenidas en una avalancha',
}

interface ErasuresTable {
  id: string
  erased_at: string
  rule: ErasureRule
  requests: number
  deliveries: number
}

/** The store's own tables (lead-store-schema.ts), and the one this module adds. */
type StoreSchema = LeadStore['db'] extends Kysely<infer Tables> ? Tables : never
type ErasuresSchema = { lead_erasures: ErasuresTable }

interface Erasure {
  erasedAt: string
  rule: ErasureRule
  requests: number
  deliveries: number
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
