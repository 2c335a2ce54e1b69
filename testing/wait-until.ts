// The one "wait until it holds" of the tests and the benches: a site that answers, a process
// group that is gone, a socket the server has let go. Every caller names what it waits for, so
// a wait that gives up says so in words, and a ceiling is only ever a ceiling: the wait ends as
// soon as the condition holds.

interface WaitOptions {
  /** What is awaited, as the end of "waiting until …". */
  what: string
  /** The most to wait on a loaded machine; never a timing the test relies on. */
  timeoutMs?: number
  /** Between two looks. */
  intervalMs?: number
  /**
   * Looked at before each try: a reason to stop waiting at once (the process exited), or
   * nothing to go on.
   */
  giveUpIf?: () => string | undefined
  /** What to add to an error, such as what a process printed so far. */
  details?: () => string
}

const DEFAULT_TIMEOUT_MS = 20_000
const DEFAULT_INTERVAL_MS = 25

type Found<T> = Exclude<T, undefined | null | false>

const pause = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms))

/**
 * Calls `look` until it returns something other than undefined, null or false, and resolves
 * with that. An error thrown by `look` ends the wait: a look that may fail while the thing is
 * not ready yet catches its own error.
 */
export async function waitUntil<T>(
  look: () => T | Promise<T>,
  {
    what,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
    giveUpIf,
    details,
  }: WaitOptions,
): Promise<Found<Awaited<T>>> {
  const deadline = Date.now() + timeoutMs
  const failure = (reason: string): Error => {
    const more = details?.() ?? ''
    return new Error(`${reason} waiting until ${what}${more === '' ? '' : `:\n${more}`}`)
  }
  for (;;) {
    const reason = giveUpIf?.()
    if (reason !== undefined) throw failure(`gave up (${reason})`)
    const found = await look()
    if (found !== undefined && found !== null && found !== false) return found as Found<Awaited<T>>
    if (Date.now() >= deadline) throw failure(`gave up after ${timeoutMs} ms`)
    await pause(intervalMs)
  }
}
