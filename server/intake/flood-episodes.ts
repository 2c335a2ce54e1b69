// Floods come in episodes: a run of requests past the total ceiling, held (demo-intake.ts).
// The sales team is told once per episode, not once per request, nor each time the sliding
// minute frees a place: a steady 70 requests a minute has the ceiling dip below its limit every
// second. An episode ends when a whole minute passes with no request held.

const QUIET_MS = 60_000

export class FloodEpisodes {
  #lastHeldAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly now: () => number = Date.now,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** A request was held now: whether it begins an episode. */
  held(): boolean {
    const now = this.now()
    const begins = now - this.#lastHeldAt >= this.quietMs
    this.#lastHeldAt = now
    return begins
  }
}
