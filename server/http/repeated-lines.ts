// Repeated log lines of one kind, summarised: the first is written whole, the others within the
// same interval are counted, and one line per interval says how many there were. A flood of
// refused requests (another site's posts, a rate limit, a full hold) then writes a line a minute
// instead of a line a request. A kind that stays quiet for a whole interval starts over: its
// next line is written whole again.
import type { FastifyBaseLogger } from 'fastify'

const MINUTE_MS = 60_000

type Level = 'info' | 'warn' | 'error'

/** What the summary of one kind says, and where it goes. */
interface Kind {
  /** What the lines were about: "demo requests from another site refused". */
  what: string
  level: Level
  log: FastifyBaseLogger
}

interface Counted extends Kind {
  count: number
  since: number
  timer: NodeJS.Timeout
}

export class RepeatedLines {
  readonly #counted = new Map<string, Counted>()

  constructor(private readonly intervalMs = MINUTE_MS) {}

  /**
   * Whether a line of `kind` is to be written now: true for the first of an interval, false
   * (and counted) for the others, which `summary` says in one line at the interval's end.
   */
  admit(kind: string, summary: Kind): boolean {
    const counted = this.#counted.get(kind)
    if (counted !== undefined) {
      counted.count++
      return false
    }
    this.#count(kind, summary)
    return true
  }

  /** Writes the summaries due so far (the server stops): no count is lost. */
  close(): void {
    for (const kind of [...this.#counted.keys()]) this.#summarise(kind, false)
  }

  #count(kind: string, summary: Kind): void {
    const timer = setTimeout(() => this.#summarise(kind, true), this.intervalMs)
    // A summary due is no reason to keep the process alive; close() writes it.
    timer.unref()
    const { what, level, log } = summary
    this.#counted.set(kind, { what, level, log, count: 0, since: Date.now(), timer })
  }

  #summarise(kind: string, goesOn: boolean): void {
    const counted = this.#counted.get(kind)
    if (counted === undefined) return
    clearTimeout(counted.timer)
    this.#counted.delete(kind)
    if (counted.count === 0) return
    const seconds = Math.max(1, Math.round((Date.now() - counted.since) / 1000))
    counted.log[counted.level](
      { event: 'repeated', kind, count: counted.count, seconds },
      `${counted.count} more ${counted.what} in the last ${seconds === 60 ? 'minute' : `${seconds} s`}`,
    )
    // While the lines keep coming, the next interval is counted too, and summarised in its turn.
    if (goesOn) this.#count(kind, counted)
  }
}
