// The retention period (LEADS_RETENTION_DAYS): the server erases the demo requests older than
// it at start and then once a day, as the privacy notice says, with their deliveries. A request
// whose delivery is still pending is kept until the delivery ends, and goes at the next run after. With several servers
// on one PostgreSQL each runs the job, and one at a time erases (lead-privacy.ts).
import type { FastifyBaseLogger } from 'fastify'
import type { LeadStore } from '../store/index.js'

const DAY_MS = 24 * 60 * 60 * 1000

/** What one run removed. */
interface RetentionRun {
  /** Requests erased from the store; null when another server was erasing them. */
  requests: number | null
  deliveries: number | null
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class RetentionJob {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<unknown> = Promise.resolve()
  private log: FastifyBaseLogger | null = null

  constructor(
    private readonly store: LeadStore,
    private readonly options: {
      /** Requests older than this many days are erased; more than 0. */
      days: number
      /** The clock: a seam for tests. */
      now?: () => number
      /** Between runs: a day. */
      everyMs?: number
    },
  ) {}

  /** Erases what is older than the period once, now. */
  async runOnce(): Promise<RetentionRun> {
    const now = this.options.now?.() ?? Date.now()
    const cutoff = new Date(now - this.options.days * DAY_MS)
    const erased = await this.store.erasure.eraseExpired(cutoff)
    const run: RetentionRun = {
      requests: erased?.requests ?? null,
      deliveries: erased?.deliveries ?? null,
    }
    const before = cutoff.toISOString()
    if ((run.requests ?? 0) > 0) {
      this.log?.info(
        { event: 'retention-erased', requests: run.requests, deliveries: run.deliveries, before },
        `erased ${run.requests} demo requests received before ${before} and their ` +
          `${run.deliveries} deliveries (LEADS_RETENTION_DAYS ${this.options.days})`,
      )
    }
    if (erased?.leftInWal === true) {
      this.log?.warn(
        { event: 'retention-wal-busy' },
        'the SQLite WAL could not be emptied after the erasure: the next checkpoint will',
      )
    }
    return run
  }

  /**
   * The run at start (resolves when it ends; a failure is logged, not thrown: the server serves
   * anyway and tries again the next day), then one a day.
   */
  async start(log: FastifyBaseLogger): Promise<void> {
    this.log = log
    await this.guardedRun()
    this.timer = setInterval(() => void this.guardedRun(), this.options.everyMs ?? DAY_MS)
    this.timer.unref()
  }

  private guardedRun(): Promise<unknown> {
    this.running = this.running.then(() =>
      this.runOnce().catch((error: unknown) => {
        this.log?.error(
          { event: 'retention-failed', err: error },
          `could not erase the expired demo requests: ${message(error)}; trying again in a day`,
        )
      }),
    )
    return this.running
  }

  /** No more runs; resolves once the one under way has ended. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
