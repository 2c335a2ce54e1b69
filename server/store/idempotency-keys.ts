// The door's Idempotency-Keys, shared by every server on the store: a key is claimed by one
// request at a time, answered in the transaction that stores its request, and kept for a day.
// See docs/decisions/020-our-own-door.md.
import type { Kysely } from 'kysely'
import type { AlsoWrite } from './writes.js'
import type { LeadDatabase } from './schema.js'

/**
 * How long a key is kept: a retry a day later still gets the first answer.
 * @internal its tests use it too
 */
export const KEY_KEPT_MS = 24 * 60 * 60 * 1000
/**
 * How long one request may hold its key while it is stored: far longer than a write takes, so
 * only a server that died mid-request lets a key go this way (its retry then stores it).
 */
const KEY_CLAIM_MS = 60_000

/** What a key says of a request that comes with it. */
export type KeyClaim =
  /** New (or free again): this request is stored under it. */
  | { kind: 'claimed' }
  /** The same request is being stored by another call now. */
  | { kind: 'in-flight' }
  /** The key came with another request. */
  | { kind: 'mismatch' }
  /** The same request was stored: its answer again. */
  | { kind: 'answered'; status: number; answer: string }

export async function claimKey(
  db: Kysely<LeadDatabase>,
  key: string,
  fingerprint: string,
  now: number,
): Promise<KeyClaim> {
  // A key past its day is no longer known: its request, if it comes again, is a new one.
  await db
    .deleteFrom('lead_idempotency_keys')
    .where('key', '=', key)
    .where('created_at', '<', now - KEY_KEPT_MS)
    .execute()
  const inserted = await db
    .insertInto('lead_idempotency_keys')
    .values({
      key,
      fingerprint,
      created_at: now,
      claimed_until: now + KEY_CLAIM_MS,
      status: null,
      answer: null,
      request_id: null,
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'claimed' }
  const row = await db
    .selectFrom('lead_idempotency_keys')
    .select(['fingerprint', 'status', 'answer'])
    .where('key', '=', key)
    .executeTakeFirst()
  // Released between the insert and the read: its request is being tried again elsewhere.
  if (row === undefined) return { kind: 'in-flight' }
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
  if (row.status !== null && row.answer !== null) {
    return { kind: 'answered', status: row.status, answer: row.answer }
  }
  // Claimed by a server that died before it answered: taken over, by one retry only.
  const taken = await db
    .updateTable('lead_idempotency_keys')
    .set({ claimed_until: now + KEY_CLAIM_MS })
    .where('key', '=', key)
    .where('status', 'is', null)
    .where('claimed_until', '<', now)
    .executeTakeFirst()
  return Number(taken.numUpdatedRows) > 0 ? { kind: 'claimed' } : { kind: 'in-flight' }
}

/** Written in the request's own transaction: the key is answered if and only if it is stored. */
export const keyAnswered =
  (key: string, status: number, answer: string): AlsoWrite =>
  async (trx, record) => {
    await trx
      .updateTable('lead_idempotency_keys')
      .set({ status, answer, request_id: record.id, claimed_until: null })
      .where('key', '=', key)
      .execute()
  }

/** Lets a key go whose request was not stored (refused, or the store failed): a retry may. */
export async function releaseKey(db: Kysely<LeadDatabase>, key: string): Promise<void> {
  await db
    .deleteFrom('lead_idempotency_keys')
    .where('key', '=', key)
    .where('status', 'is', null)
    .execute()
}

/** Forgets the keys older than a day; resolves to how many. */
export async function pruneKeys(db: Kysely<LeadDatabase>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('lead_idempotency_keys')
    .where('created_at', '<', now - KEY_KEPT_MS)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
