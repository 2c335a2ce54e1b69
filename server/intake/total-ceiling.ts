// A ceiling on the demo requests delivered from all clients together, per minute. The
// per-client limit stops one address; this stops many addresses, each within its own limit,
// from filling the sales team's inbox: past it requests are held (demo-intake.ts). It is set
// far above a real site's traffic (a landing page gets a few requests an hour), so a visitor
// meets it only during a flood.

type CeilingAnswer =
  | { stored: true }
  | {
      stored: false
      /** Seconds until the oldest request of the minute leaves it and a place frees up. */
      retryAfterSeconds: number
    }

const MINUTE_MS = 60_000

export class TotalCeiling {
  /** When each request of the last minute took its place, oldest first. */
  readonly #taken: number[] = []

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a place for one request, if the last minute has one left. */
  take(): CeilingAnswer {
    const now = this.now()
    while (this.#taken.length > 0 && this.#taken[0]! <= now - MINUTE_MS) this.#taken.shift()
    if (this.#taken.length < this.perMinute) {
      this.#taken.push(now)
      return { stored: true }
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((this.#taken[0]! + MINUTE_MS - now) / 1000))
    return { stored: false, retryAfterSeconds }
  }
}
