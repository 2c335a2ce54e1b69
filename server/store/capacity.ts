// Whether the store can take the next request: its cap (OUTBOX_MAX_BYTES), the disk under it,
// a probe after a failed write, and readiness told to a listener when it changes.
import { randomUUID } from 'node:crypto'
import { statfs } from 'node:fs/promises'
import type SqliteDatabase from 'better-sqlite3'
import type { Dialect } from './dialect.js'
import { errorText } from '../text/index.js'

/**
 * Below this much free disk space readiness fails: the next request may not fit.
 * @internal its tests use it too
 */
export const MIN_FREE_BYTES = 1024 ** 2

export type Readiness = { ready: true } | { ready: false; reason: string }

/** Why the store refused a request; the intake answers each with its own 5xx. */
type WriteFailure = 'full' | 'no-space' | 'write-failed'

export class StoreWriteError extends Error {
  constructor(
    readonly failure: WriteFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'StoreWriteError'
  }
}

/** @internal its tests use it too */
export interface StoreOptions {
  /** Stores past this many bytes are refused ('full', 507). */
  maxBytes: number
  /** The largest request: readiness fails as soon as one would not fit. */
  largestRecordBytes: number
  /** Bytes free on the disk holding `dir` (SQLite only): a seam for tests. */
  freeBytes?: (dir: string) => Promise<number>
  /**
   * Given the SQLite connection once it is open and migrated (SQLite only): the seam through
   * which the browser suites make a fault inside the database itself (testing/full-disk.mjs).
   */
  onSqliteOpen?: (connection: SqliteDatabase.Database) => void
}

const defaultFreeBytes = async (dir: string): Promise<number> => {
  const stats = await statfs(dir)
  return stats.bavail * stats.bsize
}

export class Capacity {
  /** Why the last write failed, other than the cap; null once a write or readiness passes. */
  private failure: string | null = null
  private wasReady = true
  private onReadinessChange: (state: Readiness) => void = () => undefined

  constructor(
    private readonly dialect: Dialect,
    private readonly options: StoreOptions,
  ) {}

  /** Refuses ('full') `needed` more bytes past the cap; resolves to the bytes held now. */
  async admit(needed: number): Promise<number> {
    const used = await this.dialect.usedBytes()
    if (used + needed > this.options.maxBytes) {
      throw new StoreWriteError(
        'full',
        `the store holds ${used} bytes and this request needs about ${needed} more, past ` +
          `its limit of ${this.options.maxBytes} bytes (OUTBOX_MAX_BYTES)`,
      )
    }
    return used
  }

  /** A write committed: whatever failed before has passed. */
  written(): void {
    this.failure = null
  }

  /**
   * A write failed, with `used` bytes held before it: why, as the intake answers it. Readiness
   * probes from now until a write would pass (past the cap it needs no probe).
   */
  failed(error: unknown, used: number): StoreWriteError {
    const failure = error instanceof StoreWriteError ? error : this.asStoreWriteError(error, used)
    if (failure.failure !== 'full') this.failure = failure.message
    return failure
  }

  private asStoreWriteError(error: unknown, used: number): StoreWriteError {
    switch (this.dialect.outOfRoom(error, used)) {
      case 'full':
        return new StoreWriteError(
          'full',
          `the store is full at ${used} bytes (OUTBOX_MAX_BYTES ${this.options.maxBytes})`,
          { cause: error },
        )
      case 'no-space':
        return new StoreWriteError(
          'no-space',
          `no space left for the store (${errorText(error)})`,
          {
            cause: error,
          },
        )
      case null:
        return new StoreWriteError(
          'write-failed',
          `the store could not be written (${errorText(error)})`,
          { cause: error },
        )
    }
  }

  /** Tells `listener` when the store turns ready or not ready, once per change. */
  watch(listener: (state: Readiness) => void): void {
    this.onReadinessChange = listener
  }

  /** Whether a request of the largest size would be stored now; a change is told. */
  async readiness(): Promise<Readiness> {
    const state = await this.check()
    if (state.ready !== this.wasReady) {
      this.wasReady = state.ready
      this.onReadinessChange(state)
    }
    return state
  }

  private async check(): Promise<Readiness> {
    try {
      const used = await this.dialect.usedBytes()
      const needed = this.options.largestRecordBytes
      if (used + needed > this.options.maxBytes) {
        return {
          ready: false,
          reason:
            `the store is full: it holds ${used} of ${this.options.maxBytes} bytes ` +
            `(OUTBOX_MAX_BYTES) and a request can take ${needed}`,
        }
      }
      const disk = await this.diskProblem()
      if (disk !== null) return { ready: false, reason: disk }
      this.failure = null
      return { ready: true }
    } catch (error) {
      return { ready: false, reason: `the store cannot be read: ${errorText(error)}` }
    }
  }

  /**
   * Why the disk cannot take the next request; null when it can. PostgreSQL's disk cannot be
   * seen from here: after a write failed, only a probe tells.
   */
  private async diskProblem(): Promise<string | null> {
    const { dataDir } = this.dialect
    if (dataDir !== null) {
      const needed = Math.max(MIN_FREE_BYTES, this.options.largestRecordBytes)
      const free = await (this.options.freeBytes ?? defaultFreeBytes)(dataDir)
      if (free < needed) {
        return `only ${free} bytes of disk space are left for the store (${needed} needed)`
      }
    }
    return this.failure === null ? null : this.probe()
  }

  /**
   * After a write failed: whether a request of the largest size would be stored now. Null when
   * it would; why not otherwise. SQLite keeps a transaction's pages in memory until it commits:
   * only a committed write (taken back by a second one) shows whether the disk has room again.
   * PostgreSQL's is written and rolled back.
   */
  private async probe(): Promise<string | null> {
    const rolledBack = new Error('probe rolled back')
    const row = { id: randomUUID(), data: 'x'.repeat(this.options.largestRecordBytes) }
    try {
      if (this.dialect.kind === 'sqlite') {
        await this.dialect.transact((trx) => trx.insertInto('lead_probe').values(row).execute())
        // Any probe left by a delete that failed goes too.
        await this.dialect.transact((trx) => trx.deleteFrom('lead_probe').execute())
      } else {
        await this.dialect.transact(async (trx) => {
          await trx.insertInto('lead_probe').values(row).execute()
          throw rolledBack
        })
      }
    } catch (error) {
      if (error !== rolledBack) return `a probe write failed: ${errorText(error)}`
    }
    return null
  }
}
