// The reps' calendars, read in the background and kept for a few minutes, so that showing the
// free times never waits on a calendar's server: the booking page reads what was cached. Before
// a booking the calendar is read again when the copy is older than a minute. A calendar that
// cannot be read counts as a channel (decision 013): the `calendar` channel is failing while any
// of them fails, on /healthz/delivery and the metrics, told after LEADS_ALERT_AFTER_SECONDS, and
// it recovers by itself with the next good read. What was read last is kept meanwhile.
import type { FastifyBaseLogger } from 'fastify'
import { busySpans, type Span } from './busy-times.js'
import { CalendarReadError, readCalendar } from './calendar-source.js'

/** One rep's calendar: whose, where, and the zone of its dates without one. */
interface CalendarSource {
  /** The rep, as the store names them (their e-mail). */
  rep: string
  address: string
  timeZone: string
}

/** Where a calendar's health is told: the delivery worker's channel state (or the store's). */
export interface CalendarHealth {
  fault(reason: string, startedAt: number): Promise<void>
  works(): Promise<void>
}

/** What was read of one calendar. */
interface Copy {
  busy: Span[]
  readAt: number
}

interface CalendarReaderOptions {
  health: CalendarHealth
  /** How often every calendar is read again. */
  refreshMs?: number
  /** How far ahead the busy times are read. */
  aheadMs?: number
  now?: () => number
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export class CalendarReader {
  private readonly copies = new Map<string, Copy>()
  private readonly sources: ReadonlyMap<string, CalendarSource>
  private readonly health: CalendarHealth
  private readonly refreshMs: number
  private readonly aheadMs: number
  private readonly now: () => number
  private timer: NodeJS.Timeout | null = null
  private round: Promise<void> | null = null
  private log: FastifyBaseLogger | null = null
  private failing = false
  private readonly stopping = new AbortController()

  constructor(sources: readonly CalendarSource[], options: CalendarReaderOptions) {
    this.sources = new Map(sources.map((source) => [source.rep, source]))
    this.health = options.health
    this.refreshMs = options.refreshMs ?? 3 * MINUTE
    this.aheadMs = options.aheadMs ?? 14 * DAY
    this.now = options.now ?? Date.now
  }

  /** Whether a rep has a calendar to read. */
  has(rep: string): boolean {
    return this.sources.has(rep)
  }

  /** Reads every calendar now, then again every refreshMs; resolves once the first round ends. */
  async start(log?: FastifyBaseLogger): Promise<void> {
    this.log = log ?? null
    await this.refresh()
    const tick = (): void => {
      if (this.stopping.signal.aborted) return
      this.timer = setTimeout(() => void this.refresh().finally(tick), this.refreshMs)
      this.timer.unref()
    }
    tick()
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.stopping.abort()
    await this.round
  }

  /** What was read of a rep's calendar, however old; null when it was never read. */
  cached(rep: string): Copy | null {
    return this.copies.get(rep) ?? null
  }

  /**
   * A rep's busy spans no older than `maxAgeMs`: read again when the copy is older. Rejects
   * with a CalendarReadError when it cannot be read (and says so to the channel's health).
   */
  async fresh(rep: string, maxAgeMs: number): Promise<Copy> {
    const copy = this.copies.get(rep)
    if (copy !== undefined && this.now() - copy.readAt <= maxAgeMs) return copy
    const source = this.sources.get(rep)
    if (source === undefined) throw new CalendarReadError('the rep has no calendar')
    const startedAt = this.now()
    try {
      return await this.read(source)
    } catch (error) {
      await this.reportFault(error, startedAt)
      throw error
    }
  }

  /** One round: every calendar read; the channel fails while any of them does. */
  private refresh(): Promise<void> {
    this.round ??= (async () => {
      const startedAt = this.now()
      const failures: unknown[] = []
      for (const source of this.sources.values()) {
        if (this.stopping.signal.aborted) return
        try {
          await this.read(source, this.stopping.signal)
        } catch (error) {
          failures.push(error)
        }
      }
      if (this.stopping.signal.aborted) return
      try {
        if (failures.length > 0) await this.reportFault(failures[0], startedAt)
        else await this.reportWorks()
      } catch (error) {
        this.log?.error(
          { event: 'calendar-health-not-stored', err: error },
          'calendar health not stored',
        )
      }
    })().finally(() => {
      this.round = null
    })
    return this.round
  }

  private async read(source: CalendarSource, signal?: AbortSignal): Promise<Copy> {
    const readAt = this.now()
    const window = { start: readAt - DAY, end: readAt + this.aheadMs }
    const texts = await readCalendar(source.address, window, signal)
    let busy: Span[]
    try {
      busy = busySpans(texts, window, source.timeZone)
    } catch {
      throw new CalendarReadError('the calendar is not valid iCalendar')
    }
    const copy = { busy, readAt }
    this.copies.set(source.rep, copy)
    return copy
  }

  private async reportFault(error: unknown, startedAt: number): Promise<void> {
    const reason =
      error instanceof CalendarReadError ? error.message : 'the calendar could not be read'
    if (!this.failing) {
      this.failing = true
      this.log?.warn(
        { event: 'calendar-failing', reason },
        `a rep's calendar cannot be read (${reason}): the visitors see the usual success message`,
      )
    }
    await this.health.fault(reason, startedAt)
  }

  private async reportWorks(): Promise<void> {
    if (this.failing) {
      this.failing = false
      this.log?.info({ event: 'calendar-recovered' }, "the reps' calendars are read again")
    }
    await this.health.works()
  }
}
