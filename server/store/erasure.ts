// Erasure on the store: requests with their jobs in one transaction, whether a person asked for
// it, the requests outlived the retention period, or they were held in a flood and someone
// erased them, each with a record that holds no personal data (lead_erasures: no name,
// address, phone, message, nor a request's id, which the mails print). On SQLite what was
// erased is overwritten (secure_delete, set when the store opens) and the WAL is checkpointed
// and emptied, so no file holds it any more. A request's jobs go with it (its deliveries, and a
// notice that names it), so the worker never sends them afterwards.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely'
import type { Dialect } from './dialect.js'
import type { LeadDatabase } from './schema.js'

/**
 * Why requests were erased: a person asked (ARCO, GDPR art. 17), they outlived retention, or
 * they were held in a flood and someone erased them (`--erase-held`).
 */
export type ErasureRule = 'person-request' | 'retention' | 'held'

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

/** One recorded erasure. */
interface Erasure {
  erasedAt: string
  rule: ErasureRule
  requests: number
  deliveries: number
}

interface ErasuresTable {
  id: string
  erased_at: string
  rule: ErasureRule
  requests: number
  deliveries: number
}
type ErasuresSchema = { lead_erasures: ErasuresTable }
type Db = Kysely<LeadDatabase>

/** Taken by the server that applies retention now; the others pass (PostgreSQL). */
const RETENTION_LOCK = 'gaspre-lead-retention'

/** Writes the record of one erasure, in the erasure's own transaction, when it removed any. */
async function recordErasure(trx: Db, rule: ErasureRule, counts: Counts): Promise<void> {
  if (counts.requests === 0) return
  await trx
    .withTables<ErasuresSchema>()
    .insertInto('lead_erasures')
    .values({ id: randomUUID(), erased_at: new Date().toISOString(), rule, ...counts })
    .execute()
}

/**
 * Erases the requests `selected` names and their jobs, inside the caller's transaction, with
 * the record of it. Set-based, so a first run on a store of years takes a few statements, not a
 * few per request.
 */
async function eraseSelected(
  trx: Db,
  selected: SelectQueryBuilder<LeadDatabase, 'lead_requests', { id: string }>,
  rule: ErasureRule,
): Promise<Counts> {
  const deliveries = await trx
    .deleteFrom('lead_jobs')
    .where('kind', '=', 'delivery')
    .where('request_id', 'in', selected)
    .executeTakeFirst()
  // Its notices (a WhatsApp message nobody read names the visitor) go by the foreign key.
  const requests = await trx
    .deleteFrom('lead_requests')
    .where('id', 'in', selected)
    .executeTakeFirst()
  const counts: Counts = {
    requests: Number(requests.numDeletedRows),
    deliveries: Number(deliveries.numDeletedRows),
  }
  await recordErasure(trx, rule, counts)
  return counts
}

export class ErasureBook {
  /** @internal LeadStore makes one */
  constructor(private readonly dialect: Dialect) {}

  /**
   * Erases these requests and their jobs in one transaction, with the record of it (when at
   * least one was still there). Ids no longer stored are passed over.
   */
  async eraseRequests(
    ids: readonly string[],
    rule: ErasureRule = 'person-request',
  ): Promise<Erased> {
    const erased = await this.dialect.transact(async (trx) => {
      const counts: Counts = { requests: 0, deliveries: 0 }
      // One statement per id rather than one `in (…)` list: the same SQL text each time, which
      // SQLite keeps prepared (sqlite-connections.ts).
      for (const id of ids) {
        const deliveries = await trx
          .deleteFrom('lead_jobs')
          .where('request_id', '=', id)
          .where('kind', '=', 'delivery')
          .executeTakeFirst()
        const requests = await trx
          .deleteFrom('lead_requests')
          .where('id', '=', id)
          .executeTakeFirst()
        counts.requests += Number(requests.numDeletedRows)
        counts.deliveries += Number(deliveries.numDeletedRows)
      }
      await recordErasure(trx, rule, counts)
      return counts
    })
    return this.afterErasure(erased)
  }

  /**
   * `--erase-held`: erases every request held in a flood, with its jobs, in one transaction.
   * Some may have been a person's, so it is recorded and cleared from the WAL like any erasure.
   */
  async eraseHeld(): Promise<Erased> {
    const erased = await this.dialect.transact((trx) =>
      eraseSelected(
        trx,
        trx.selectFrom('lead_requests').select('id').where('held', '=', 1),
        'held',
      ),
    )
    return this.afterErasure(erased)
  }

  /**
   * Erases every request received before `cutoff` whose deliveries have all ended (delivered or
   * failed: one still pending keeps its request until it ends), in one transaction, with the
   * record of it. With several servers on one PostgreSQL, one of them does it at a time: the
   * others find the lock taken and erase nothing (null), and whoever comes after finds nothing
   * left, so each request is erased, and recorded, once.
   */
  async eraseExpired(cutoff: Date): Promise<Erased | null> {
    const before = cutoff.toISOString()
    const erased = await this.dialect.transact(async (trx) => {
      if (this.dialect.kind === 'postgres') {
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
              selectFrom('lead_jobs')
                .select('request_id')
                .whereRef('lead_jobs.request_id', '=', 'lead_requests.id')
                .where('kind', '=', 'delivery')
                .where('state', '=', 'pending'),
            ),
          ),
        )
      return eraseSelected(trx, expired, 'retention')
    })
    return erased === null ? null : this.afterErasure(erased)
  }

  /** Every recorded erasure, newest first. */
  async erasures(): Promise<Erasure[]> {
    const rows = await this.dialect.db
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

  /** Empties SQLite's WAL after an erasure that removed something; says when it could not. */
  private async afterErasure(counts: Counts): Promise<Erased> {
    if (counts.requests === 0 || (await this.clearSqliteLog())) return counts
    return { ...counts, leftInWal: true }
  }

  /**
   * SQLite: copies the WAL into the file (whose erased cells secure_delete has zeroed) and
   * empties it, so the WAL keeps no older copy of an erased page. It waits for readers within
   * the busy timeout; a reader that holds on past three tries leaves the WAL to the next
   * checkpoint, and this says so (false).
   */
  private async clearSqliteLog(): Promise<boolean> {
    if (this.dialect.kind !== 'sqlite') return true
    for (let attempt = 0; attempt < 3; attempt++) {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(
        this.dialect.db,
      )
      if (Number(rows[0]?.busy) === 0) return true
    }
    return false
  }
}
