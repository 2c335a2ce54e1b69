// What the privacy notice promises, on the store: every request of one person (access), and
// erasure of requests with their deliveries in one transaction, whether a person asked for it,
// the requests outlived the retention period, or they were held in a flood and someone erased
// them. Each erasure leaves a record without personal data (erasure-log.ts). On SQLite what was
// erased is overwritten (secure_delete, set when the store opens) and the WAL is checkpointed and
// emptied, so no file holds it any more. A delivery of an erased request goes with it, so the
// worker never sends it afterwards.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely'
import { recordErasure, type ErasureRule } from './erasure-log.js'
import type { LeadStore, StoredRequest } from '../store/index.js'
import type { LeadDatabase } from '../store/index.js'
import { sentBy, type Person } from './person-match.js'

/** What an erasure removed. */
interface Erased {
  requests: number
  deliveries: number
  /**
   * SQLite only: a reader held the WAL past three tries, so it may still hold a copy of what
   * was erased until the next checkpoint (the server makes one as it writes).
   */
  leftInWal?: true
}

type Counts = Omit<Erased, 'leftInWal'>

/** Empties SQLite's WAL after an erasure that removed something; says when it could not. */
async function afterErasure(store: LeadStore, counts: Counts): Promise<Erased> {
  if (counts.requests === 0 || (await clearSqliteLog(store))) return counts
  return { ...counts, leftInWal: true }
}

/** Every stored request of `person`, oldest first, with its deliveries. */
export async function requestsOf(store: LeadStore, person: Person): Promise<StoredRequest[]> {
  // Addresses and numbers are compared as people write them, which SQL cannot do alike on
  // SQLite and PostgreSQL: the store is read in pages and each request checked here.
  const found: StoredRequest[] = []
  for await (const request of store.requests({ oldestFirst: true })) {
    if (sentBy(person, request.params)) found.push(request)
  }
  return found
}

/**
 * Erases these requests and their deliveries in one transaction, with the record of it (when
 * at least one was still there). Ids no longer stored are passed over.
 */
export async function eraseRequests(
  store: LeadStore,
  ids: readonly string[],
  rule: ErasureRule = 'person-request',
): Promise<Erased> {
  const erased = await store.atomically(async (trx) => {
    const counts: Counts = { requests: 0, deliveries: 0 }
    // One statement per id rather than one `in (…)` list: the same SQL text each time, which
    // SQLite keeps prepared (store/sqlite-connections.ts).
    for (const id of ids) {
      const deliveries = await trx
        .deleteFrom('lead_deliveries')
        .where('request_id', '=', id)
        .executeTakeFirst()
      const requests = await trx.deleteFrom('lead_requests').where('id', '=', id).executeTakeFirst()
      counts.requests += Number(requests.numDeletedRows)
      counts.deliveries += Number(deliveries.numDeletedRows)
    }
    if (counts.requests > 0) {
      await recordErasure(trx, { erasedAt: new Date().toISOString(), rule, ...counts })
    }
    return counts
  })
  return afterErasure(store, erased)
}

/**
 * Erases the requests `selected` names and their deliveries, inside the caller's transaction, with
 * the record of it. Set-based, so a first run on a store of years takes two statements, not two
 * per request.
 */
async function eraseSelected(
  trx: Kysely<LeadDatabase>,
  selected: SelectQueryBuilder<LeadDatabase, 'lead_requests', { id: string }>,
  rule: ErasureRule,
): Promise<Counts> {
  const deliveries = await trx
    .deleteFrom('lead_deliveries')
    .where('request_id', 'in', selected)
    .executeTakeFirst()
  const requests = await trx
    .deleteFrom('lead_requests')
    .where('id', 'in', selected)
    .executeTakeFirst()
  const counts: Counts = {
    requests: Number(requests.numDeletedRows),
    deliveries: Number(deliveries.numDeletedRows),
  }
  if (counts.requests > 0) {
    await recordErasure(trx, { erasedAt: new Date().toISOString(), rule, ...counts })
  }
  return counts
}

/**
 * `--erase-held`: erases every request held in a flood, with its deliveries, in one transaction.
 * Some may have been a person's, so it is recorded and cleared from the WAL like any erasure.
 */
export async function eraseHeld(store: LeadStore): Promise<Erased> {
  const erased = await store.atomically((trx) =>
    eraseSelected(trx, trx.selectFrom('lead_requests').select('id').where('held', '=', 1), 'held'),
  )
  return afterErasure(store, erased)
}

/** Taken by the server that applies retention now; the others pass (PostgreSQL). */
const RETENTION_LOCK = 'gaspre-lead-retention'

/**
 * Erases every request received before `cutoff` whose deliveries have all ended (delivered or
 * failed: one still pending keeps its request until it ends), in one transaction, with the
 * record of it. With several servers on one PostgreSQL, one of them does it at a time: the
 * others find the lock taken and erase nothing (null), and whoever comes after finds nothing
 * left, so each request is erased, and recorded, once.
 */
export async function eraseExpired(store: LeadStore, cutoff: Date): Promise<Erased | null> {
  const before = cutoff.toISOString()
  const erased = await store.atomically(async (trx) => {
    if (store.kind === 'postgres') {
      const { rows } = await sql<{ taken: boolean }>`
        select pg_try_advisory_xact_lock(hashtext(${RETENTION_LOCK})) as taken
      `.execute(trx)
      if (rows[0]?.taken !== true) return null
    }
    const expired = trx
      .selectFrom('lead_requests')
      .select('id')
      .where('received_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('lead_deliveries')
              .select('request_id')
              .whereRef('lead_deliveries.request_id', '=', 'lead_requests.id')
              .where('state', '=', 'pending'),
          ),
        ),
      )
    return eraseSelected(trx, expired, 'retention')
  })
  return erased === null ? null : afterErasure(store, erased)
}

/**
 * SQLite: copies the WAL into the file (whose erased cells secure_delete has zeroed) and
 * empties it, so the WAL keeps no older copy of an erased page. It waits for readers within
 * the busy timeout; a reader that holds on past three tries leaves the WAL to the next
 * checkpoint, and this says so (false).
 */
async function clearSqliteLog(store: LeadStore): Promise<boolean> {
  if (store.kind !== 'sqlite') return true
  for (let attempt = 0; attempt < 3; attempt++) {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(store.db)
    if (Number(rows[0]?.busy) === 0) return true
  }
  return false
}
