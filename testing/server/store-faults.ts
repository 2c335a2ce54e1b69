// Faults made inside a store's own SQLite connection (StoreOptions' seams): a request's insert,
// and the readiness probe's, fail as SQLite fails them on a full disk (SQLITE_FULL) or on an I/O
// error (SQLITE_IOERR), and the free space the store sees is the test's to set. The store's
// transaction, rollback, reading of the error and readiness all run as in production.
import type { Database } from 'better-sqlite3'
import type { StoreOptions } from '../../server/store/lead-store.js'

type Fault = 'no-space' | 'io-error'

const ERRORS: Record<Fault, { code: string; message: string }> = {
  'no-space': { code: 'SQLITE_FULL', message: 'database or disk is full' },
  'io-error': { code: 'SQLITE_IOERR', message: 'disk I/O error' },
}

export class StoreFaults {
  /** The fault the next writes meet; null: none. */
  failing: Fault | null = null
  /** How many writes meet it before it clears by itself (Infinity: until the test clears it). */
  times = Infinity
  /** Bytes free on the store's disk, as the store's readiness check sees them. */
  free = Number.MAX_SAFE_INTEGER

  /** For appOnTemporaryStore's storeOptions. */
  readonly storeOptions: Pick<StoreOptions, 'onSqliteOpen' | 'freeBytes'> = {
    freeBytes: async () => this.free,
    onSqliteOpen: (connection) => this.install(connection),
  }

  /** Fails the next `times` writes with `fault`. */
  fail(fault: Fault, times = Infinity): void {
    this.failing = fault
    this.times = times
  }

  clear(): void {
    this.failing = null
  }

  private install(connection: Database): void {
    connection.function('gaspre_store_fault', () => {
      const fault = this.failing
      if (fault === null) return 0
      if (--this.times <= 0) this.failing = null
      throw Object.assign(new Error(ERRORS[fault].message), { code: ERRORS[fault].code })
    })
    for (const table of ['lead_requests', 'lead_probe']) {
      connection.exec(
        `CREATE TEMP TRIGGER gaspre_fault_${table} BEFORE INSERT ON main.${table} ` +
          'BEGIN SELECT gaspre_store_fault(); END',
      )
    }
  }
}
