// What differs between SQLite and PostgreSQL beneath the store: lead-store-sqlite.ts and
// lead-store-postgres.ts each make one; everything else the store does is shared.
import type { Kysely } from 'kysely'
import type { LeadDatabase } from './schema.js'

export interface Dialect {
  readonly kind: 'sqlite' | 'postgres'
  /** The variable an operator mends when the store cannot be used. */
  readonly setting: 'DATA_DIR' | 'DATABASE_URL'
  /** Where the requests are, for people: a file path or a database without its password. */
  readonly location: string
  /** The folder on the disk that holds the store, when that disk can be seen from here. */
  readonly dataDir: string | null
  readonly db: Kysely<LeadDatabase>
  /** Runs `work` in one transaction: all of it is committed, or none. */
  transact<T>(work: (trx: Kysely<LeadDatabase>) => Promise<T>): Promise<T>
  /** Runs the migrator's `work` on a database no other server migrates meanwhile. */
  migrating(work: (db: Kysely<LeadDatabase>) => Promise<void>): Promise<void>
  /** Bytes the store holds now, as its cap (OUTBOX_MAX_BYTES) counts them. */
  usedBytes(): Promise<number>
  /** Whether a driver's error says the store is out of room: past its cap, or its disk full. */
  outOfRoom(error: unknown, usedBytes: number): 'full' | 'no-space' | null
  /** Called once the store is migrated, before anything is stored. */
  migrated?(): void
}

/** A store that cannot be opened: the operator's to mend (main.ts prints the line, exits 1). */
export class StoreError extends Error {
  override name = 'StoreError'
}
