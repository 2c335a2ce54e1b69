// Floods come in episodes: a run of requests past the total ceiling, held (demo-intake.ts).
// The sales team is told once when an episode begins, not once per request, nor each time the
// sliding minute frees a place: a steady 70 requests a minute has the ceiling dip below its
// limit every second. As the episode goes on it is told again each time the held requests reach
// ten times what it was last told (10, 100, 1,000…), so that "1 held" is never the last word on
// a flood of thousands. An episode ends when a whole minute passes with no request held.

const QUIET_MS = 60_000

/** What one more held request means for the sales team. */
type FloodNews = { kind: 'began' | 'grew'; since: Date } | null

export class FloodEpisodes {
  #lastHeldAt = Number.NEGATIVE_INFINITY
  #since = 0
  /** How many were held when the sales team was last told. */
  #told = 0

  constructor(
    private readonly now: () => number = Date.now,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** A request was held now, `held` in all: whether it begins an episode, or grows it tenfold. */
  held(held: number): FloodNews {
    const now = this.now()
    const begins = now - this.#lastHeldAt >= this.quietMs
    this.#lastHeldAt = now
    if (begins) {
      this.#since = now
      this.#told = held
      return { kind: 'began', since: new Date(now) }
    }
    if (held < nextTenfold(this.#told)) return null
    this.#told = held
    return { kind: 'grew', since: new Date(this.#since) }
  }
}

/** The next power of ten above `count`: 1 → 10, 41 → 100, 100 → 1,000. */
const nextTenfold = (count: number): number =>
  10 ** (Math.floor(Math.log10(Math.max(count, 1))) + 1)
