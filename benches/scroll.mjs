// The scroll trace of the benches (npm run bench and npm run bench:interactions): the home page
// on a phone (390×844) with the CPU 4× slower, scrolled top to bottom in requestAnimationFrame
// steps over SCROLL_MS while Chromium records a performance trace; it reports the renderer main
// thread's longest tasks during the scroll (and 500 ms after), with where their time went.
import { setTimeout as sleep } from 'node:timers/promises'
import { CPU_SLOWDOWN, PHONE, QUIET_AFTER_HYDRATION_MS } from './settings.mjs'
import { waitForHydration } from '../testing/hydration.mjs'

const SCROLL_MS = 5000
export const SCROLL_TASK_TARGET_MS = 50

/**
 * @param {import('playwright-core').Browser} browser @param {string} origin
 * @param {(context: import('playwright-core').BrowserContext) => Promise<void>} [prepare]
 *   run on the fresh context before the page loads (the peer's hydration marker)
 */
export async function scrollTrace(browser, origin, prepare) {
  const context = await browser.newContext(PHONE)
  try {
    await prepare?.(context)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await page.goto(`${origin}/`, { waitUntil: 'load' })
    await waitForHydration(page)
    await sleep(QUIET_AFTER_HYDRATION_MS)
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'blink',
        'blink.user_timing',
      ],
    })
    await page.evaluate(
      (duration) =>
        new Promise((done) => {
          const max = document.documentElement.scrollHeight - window.innerHeight
          performance.mark('bench:scroll-start')
          const start = performance.now()
          const step = (/** @type {number} */ now) => {
            const progress = Math.min(1, (now - start) / duration)
            window.scrollTo({ top: Math.round(progress * max), behavior: 'instant' })
            if (progress < 1) requestAnimationFrame(step)
            else {
              performance.mark('bench:scroll-end')
              done(undefined)
            }
          }
          requestAnimationFrame(step)
        }),
      SCROLL_MS,
    )
    // Tasks that end after the scroll are counted for 500 ms: let them end.
    await sleep(600)
    /** @type {{ traceEvents: any[] }} */
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8'))
    return longestScrollTasks(trace.traceEvents)
  } finally {
    await context.close()
  }
}

/** What the trace says, as lines to print under a site's name. @param {ScrollTrace} trace */
export function describeScrollTrace(trace, { withTarget = true } = {}) {
  const verdict = withTarget ? (trace.longestMs <= SCROLL_TASK_TARGET_MS ? ' ✓' : ' ✗') : ''
  return [
    `longest task ${trace.longestMs} ms${verdict}, ${trace.over50} over 50 ms; ` +
      `longest by thread time (without waits for a busy CPU) ${trace.longestThreadMs} ms`,
    ...trace.top.map(
      (task) => `  ${task.ms} ms (thread ${task.threadMs} ms): ${task.inside.join('; ')}`,
    ),
  ]
}

export const SCROLL_TRACE_TITLE = `Scroll trace of / (390×844, CPU ${CPU_SLOWDOWN}× slower, ${SCROLL_MS / 1000} s; target: no task over ${SCROLL_TASK_TARGET_MS} ms)`

/** @typedef {ReturnType<typeof longestScrollTasks>} ScrollTrace */

/**
 * Where a task's time went: its events' own time (without the events nested in them), summed by
 * name, with the data: or file URL of image and script events shortened to a name.
 * @param {any[]} events  the events inside one task
 */
function selfTimes(events) {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || b.dur - a.dur)
  /** @type {Map<string, number>} */
  const self = new Map()
  /** @type {{ end: number, key: string }[]} */
  const stack = []
  const keyOf = (/** @type {any} */ event) => {
    const url = event.args?.data?.url ?? event.args?.data?.imageUrl
    return typeof url === 'string'
      ? `${event.name} (${url.startsWith('data:') ? url.slice(0, 18) : url.split('/').pop()})`
      : event.name
  }
  for (const event of sorted) {
    while (stack.length > 0 && (stack.at(-1)?.end ?? 0) <= event.ts) stack.pop()
    const parent = stack.at(-1)
    if (parent) self.set(parent.key, (self.get(parent.key) ?? 0) - event.dur)
    const key = keyOf(event)
    self.set(key, (self.get(key) ?? 0) + event.dur)
    stack.push({ end: event.ts + event.dur, key })
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, dur]) => `${name} ${Math.round(dur / 100) / 10}`)
}

/** @param {any[]} events */
function longestScrollTasks(events) {
  const start = events.find((event) => event.name === 'bench:scroll-start')
  const end = events.find((event) => event.name === 'bench:scroll-end')
  if (!start || !end) throw new Error('The trace has no scroll marks')
  const onMain = (/** @type {any} */ event) =>
    event.pid === start.pid && event.tid === start.tid && event.ph === 'X' && event.dur > 0
  const isTask = (/** @type {any} */ event) =>
    event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask'
  const tasks = events
    .filter((event) => onMain(event) && isTask(event))
    .filter((event) => event.ts + event.dur >= start.ts && event.ts <= end.ts + 500_000)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur)
  // RunTask and ThreadControllerImpl::RunTask nest: keep the outermost of each task.
  let outerEnd = -Infinity
  const outermost = tasks.filter((task) => {
    if (task.ts + task.dur <= outerEnd) return false
    outerEnd = task.ts + task.dur
    return true
  })
  outermost.sort((a, b) => b.dur - a.dur)
  const inner = events.filter((event) => onMain(event) && !isTask(event))
  // Under 4× throttling a task's thread time is its throttled length without the time it waited
  // for a CPU held by other processes: the figure to trust on a busy machine.
  const threadMs = (/** @type {any} */ task) => Math.round((task.tdur ?? task.dur) / 100) / 10
  const top = outermost.slice(0, 3).map((task) => ({
    ms: Math.round(task.dur / 100) / 10,
    threadMs: threadMs(task),
    inside: selfTimes(
      inner.filter((event) => event.ts >= task.ts && event.ts + event.dur <= task.ts + task.dur),
    ),
  }))
  return {
    longestMs: top[0]?.ms ?? 0,
    longestThreadMs: Math.max(0, ...outermost.map(threadMs)),
    over50: outermost.filter((task) => task.dur > 50_000).length,
    top,
  }
}
