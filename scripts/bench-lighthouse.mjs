// `npm run bench`: Lighthouse and a scroll trace against the production build.
//
//   1. builds (node scripts/build.mjs; skip with --no-build),
//   2. starts the production server (build/server/main.js) on a free loopback port with a
//      temporary DATA_DIR and waits for /healthz,
//   3. runs Lighthouse 12 (default config: mobile, simulated throttling) RUNS times per page in
//      a fresh headless Chromium each time, and keeps the median run (by performance score,
//      then LCP),
//   4. records a performance trace while scrolling the home page top to bottom (390×844,
//      4× CPU throttling) and reports the longest main-thread task,
//   5. prints the tables, the failing audits, and writes everything to
//      bench-results/lighthouse.json.
//
// Exits 0 when the bench ran (targets missed are reported, not failed; pass --strict to exit 1
// on a missed target), 1 on an error. The server and browsers are stopped on every path.
//
// CHROMIUM_PATH (default /usr/bin/chromium) picks the browser.

/* global document, window, requestAnimationFrame -- used in page.evaluate callbacks */
import { spawn, execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const PAGES = ['/', '/tyc']
const RUNS = 3
const SCROLL_MS = 5000
const CPU_SLOWDOWN = 4
const BENCH_TIMEOUT_MS = 10 * 60 * 1000
const strict = process.argv.includes('--strict')
const skipBuild = process.argv.includes('--no-build')

const CATEGORIES = /** @type {const} */ (['performance', 'accessibility', 'best-practices', 'seo'])

/**
 * The targets, each with how to read and show the figure.
 * @type {{ key: string, label: string, target: number, unit: 'score' | 's' | 'ms' | 'cls' }[]}
 */
const TARGETS = [
  { key: 'performance', label: 'Performance', target: 100, unit: 'score' },
  { key: 'accessibility', label: 'Accessibility', target: 100, unit: 'score' },
  { key: 'best-practices', label: 'Best Practices', target: 100, unit: 'score' },
  { key: 'seo', label: 'SEO', target: 100, unit: 'score' },
  { key: 'fcp', label: 'First Contentful Paint', target: 1100, unit: 's' },
  { key: 'lcp', label: 'Largest Contentful Paint', target: 1500, unit: 's' },
  { key: 'tbt', label: 'Total Blocking Time', target: 60, unit: 'ms' },
  { key: 'cls', label: 'Cumulative Layout Shift', target: 0.03, unit: 'cls' },
]
const LONGEST_TASK_TARGET_MS = 50

/**
 * The figures kept from one Lighthouse run.
 * @typedef {object} RunFigures
 * @property {Record<string, number | null>} scores  0-100 per category
 * @property {number} fcp  ms
 * @property {number} lcp  ms
 * @property {number} tbt  ms
 * @property {number} cls
 * @property {number} speedIndex  ms
 * @property {number} totalBytes  transferred
 * @property {number} scriptBytes  JavaScript transferred
 * @property {number} requests
 * @property {string[]} warnings  Lighthouse's run warnings
 * @property {{ category: string, id: string, title: string, score: number | null,
 *   displayValue?: string, weight: number, items: string[] }[]} failing
 * @property {Record<string, string[]>} clues  per metric (FCP, LCP, TBT, CLS): what Lighthouse
 *   says costs it time (audits with estimated savings, the LCP element and its phases, long tasks)
 * @property {object} lhr  the full Lighthouse result (written for the median runs only)
 */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** @type {(() => Promise<void>)[]} */
const cleanups = []
async function cleanUp() {
  while (cleanups.length > 0) {
    const step = cleanups.pop()
    try {
      await step?.()
    } catch (error) {
      console.error('cleanup:', error instanceof Error ? error.message : error)
    }
  }
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server and browsers`)
    void cleanUp().finally(() => process.exit(130))
  })
}

// ---------------------------------------------------------------------------------------------
// Server

/**
 * @typedef {object} Server
 * @property {string} origin  e.g. http://127.0.0.1:41234
 * @property {() => string | null} exit  how it exited (with its output), or null while it runs
 */

/**
 * Starts build/server/main.js on a free loopback port (PORT=0: the server picks it and prints
 * it) with a temporary DATA_DIR, and waits for /healthz.
 * @returns {Promise<Server>}
 */
async function startServer() {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-bench-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const server = spawn(process.execPath, ['build/server/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  server.stdout.on('data', (/** @type {Buffer} */ data) => (output += data.toString()))
  server.stderr.on('data', (/** @type {Buffer} */ data) => (output += data.toString()))
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => server.once('exit', () => resolve()))
  const running = () => server.exitCode === null && server.signalCode === null
  cleanups.push(async () => {
    if (!running()) return
    server.kill('SIGTERM')
    const stopped = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])
    if (!stopped) {
      server.kill('SIGKILL')
      await exited
    }
  })
  /** @type {string} */
  const origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Server did not start:\n${output}`)), 20_000)
    const onData = () => {
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        server.stdout.off('data', onData)
        resolve(match[1])
      }
    }
    server.stdout.on('data', onData)
    server.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`Server exited (${signal ?? code}) before listening:\n${output}`))
    })
  })
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      const response = await fetch(`${origin}/healthz`)
      if (response.ok) break
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${origin}/healthz did not answer 200`)
    await sleep(100)
  }
  return {
    origin,
    exit: () =>
      running()
        ? null
        : `exited with ${server.signalCode ?? server.exitCode}${output ? `:\n${output.trim()}` : ''}`,
  }
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

/**
 * One Lighthouse run in a fresh Chromium (cold cache, no state from other runs).
 * @param {string} url
 * @returns {Promise<RunFigures>}
 */
async function lighthouseRun(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    logLevel: 'silent',
  })
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
    const { lhr } = result
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`)
    const audit = (/** @type {string} */ id) => lhr.audits[id]
    const numeric = (/** @type {string} */ id) => {
      const value = audit(id)?.numericValue
      if (typeof value !== 'number') throw new Error(`Lighthouse gave no value for ${id}`)
      return value
    }
    /** @type {Record<string, number | null>} */
    const scores = {}
    for (const category of CATEGORIES) {
      const score = lhr.categories[category]?.score
      scores[category] = typeof score === 'number' ? Math.round(score * 100) : null
    }
    // Bytes by resource type, from the resource summary.
    const summary =
      /** @type {{ items?: { resourceType: string, transferSize: number, requestCount: number }[] }} */ (
        audit('resource-summary')?.details ?? {}
      )
    const byType = (/** @type {string} */ type) =>
      summary.items?.find((item) => item.resourceType === type)
    const failing = []
    for (const category of CATEGORIES) {
      const group = lhr.categories[category]
      if (!group || group.score === 1) continue
      for (const ref of group.auditRefs) {
        const result = audit(ref.id)
        if (!result) continue
        const mode = result.scoreDisplayMode
        if (mode === 'notApplicable' || mode === 'manual' || mode === 'informative') continue
        if (mode === 'error') {
          failing.push({
            category,
            id: ref.id,
            title: result.title,
            score: null,
            displayValue: `audit error: ${result.errorMessage ?? ''}`,
            weight: ref.weight,
            items: [],
          })
          continue
        }
        if (result.score === null || result.score >= 1) continue
        failing.push({
          category,
          id: ref.id,
          title: result.title,
          score: result.score,
          ...(result.displayValue ? { displayValue: result.displayValue } : {}),
          weight: ref.weight,
          items: detailItems(result.details),
        })
      }
    }
    return {
      scores,
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      speedIndex: numeric('speed-index'),
      totalBytes: numeric('total-byte-weight'),
      scriptBytes: byType('script')?.transferSize ?? 0,
      requests: byType('total')?.requestCount ?? 0,
      warnings: lhr.runWarnings ?? [],
      failing,
      clues: metricClues(lhr.audits),
      lhr,
    }
  } finally {
    await chrome.kill()
  }
}

/**
 * A few lines naming what an audit's details point at (URL, source location, element, group),
 * with the figure that matters, so a failing audit says where to look.
 * @param {any} details
 * @returns {string[]}
 */
function detailItems(details, limit = 3) {
  if (!details || typeof details !== 'object') return []
  /** @type {any[]} */
  const items = []
  const collect = (/** @type {any} */ node) => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node.items)) {
      for (const item of node.items) {
        if (item && typeof item === 'object' && (item.type === 'table' || item.type === 'list')) {
          collect(item)
        } else if (item && typeof item === 'object' && item.type === 'list-section') {
          collect(item.value)
        } else items.push(item)
      }
    }
    if (node.type === 'network-tree' && node.longestChain) {
      items.push({ label: `longest chain ${Math.round(node.longestChain.duration)} ms` })
      const walk = (/** @type {Record<string, any>} */ chains, depth = 0) => {
        for (const chain of Object.values(chains ?? {})) {
          if (chain.isLongest) {
            items.push({
              label: `${'  '.repeat(depth)}→ ${chain.url}`,
              ms: chain.navStartToEndTime,
            })
            walk(chain.children, depth + 1)
          }
        }
      }
      walk(node.chains)
    }
  }
  collect(details)
  return items.slice(0, details.type === 'list' ? 8 : limit).flatMap((item) => {
    if (!item || typeof item !== 'object') return []
    const where =
      item.url ??
      (item.source?.url ? `${item.source.url}:${item.source.line ?? ''}` : undefined) ??
      item.node?.snippet ??
      item.node?.selector ??
      item.label ??
      item.groupLabel ??
      item.description
    if (typeof where !== 'string') return []
    const figures = []
    if (typeof item.wastedBytes === 'number') figures.push(kb(item.wastedBytes) + ' wasted')
    if (typeof item.score === 'number') figures.push(`shift ${item.score.toFixed(3)}`)
    for (const key of ['wastedMs', 'duration', 'total', 'reflowTime', 'ms']) {
      if (typeof item[key] === 'number') figures.push(`${Math.round(item[key])} ms`)
    }
    const text = (where.startsWith('data:') ? shortUrl(where) : where).replace(/\s+/g, ' ')
    const short = text.length > 140 ? `${text.slice(0, 137)}…` : text
    return [`${short}${figures.length > 0 ? ` (${figures.join(', ')})` : ''}`]
  })
}

/**
 * Where each metric's time goes, from the audits Lighthouse 12 ties to it (metricSavings) and
 * the element/task audits, whether or not they pass: the targets here are stricter than
 * Lighthouse's own.
 * @param {Record<string, any>} audits
 * @returns {Record<string, string[]>}
 */
function metricClues(audits) {
  /** @type {Record<string, string[]>} */
  const clues = { FCP: [], LCP: [], TBT: [], CLS: [] }
  for (const [id, audit] of Object.entries(audits)) {
    for (const [metric, savings] of Object.entries(audit.metricSavings ?? {})) {
      if (!(metric in clues) || typeof savings !== 'number' || savings <= 0) continue
      const unit = metric === 'CLS' ? savings.toFixed(3) : `${Math.round(savings)} ms`
      const value = audit.displayValue ? ` — ${audit.displayValue}` : ''
      clues[metric]?.push(`${id} (est. savings ${unit}): ${audit.title}${value}`)
      for (const item of detailItems(audit.details)) clues[metric]?.push(`    ${item}`)
    }
  }
  const lcp = audits['largest-contentful-paint-element']?.details?.items ?? []
  const node = lcp[0]?.items?.[0]?.node
  if (node) {
    clues.LCP?.push(`LCP element: ${node.snippet ?? ''} "${(node.nodeLabel ?? '').slice(0, 80)}"`)
  }
  const phases = lcp[1]?.items ?? []
  if (phases.length > 0) {
    clues.LCP?.push(
      `LCP phases: ${phases.map((/** @type {any} */ p) => `${p.phase} ${Math.round(p.timing)} ms`).join(', ')}`,
    )
  }
  const bootup = detailItems(audits['bootup-time']?.details, 3)
  if (bootup.length > 0) {
    const work = (audits['bootup-time']?.details?.items ?? [])
      .slice(0, 3)
      .map((/** @type {any} */ item) => `${item.url} ${Math.round(item.total)} ms`)
    clues.TBT?.push(`CPU time by script (4× slowdown): ${work.join('; ')}`)
  }
  for (const item of detailItems(audits['long-tasks']?.details, 5))
    clues.TBT?.push(`long task: ${item}`)
  for (const item of detailItems(audits['layout-shifts']?.details, 5))
    clues.CLS?.push(`shift: ${item}`)
  return clues
}

/**
 * The median run: ordered by performance score, then by LCP (higher is worse).
 * @param {RunFigures[]} runs
 */
function medianRun(runs) {
  const ordered = [...runs].sort(
    (a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0) || b.lcp - a.lcp,
  )
  return /** @type {RunFigures} */ (ordered[Math.floor((ordered.length - 1) / 2)])
}

// ---------------------------------------------------------------------------------------------
// Scroll trace

/**
 * @typedef {object} TraceEvent
 * @property {string} name
 * @property {string} [cat]
 * @property {string} ph
 * @property {number} pid
 * @property {number} tid
 * @property {number} ts  µs
 * @property {number} [dur]  µs, wall clock
 * @property {number} [tdur]  µs of thread CPU time
 * @property {Record<string, any>} [args]
 */

/**
 * Loads the home page in a 390×844 mobile viewport with 4× CPU throttling, scrolls it top to
 * bottom in requestAnimationFrame steps over SCROLL_MS, and reads the renderer main thread's
 * tasks from the trace.
 * @param {string} origin
 */
async function scrollTrace(origin) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  cleanups.push(() => browser.close())
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'v8.execute',
        'blink.user_timing',
        'loading',
        'latencyInfo',
      ],
    })
    await page.goto(`${origin}/`, { waitUntil: 'load' })
    await page.waitForLoadState('networkidle')
    await sleep(1000)
    const scrolled = await page.evaluate(
      (duration) =>
        new Promise((resolve) => {
          const max = document.documentElement.scrollHeight - window.innerHeight
          performance.mark('bench:scroll-start')
          const start = performance.now()
          let frames = 0
          const step = (/** @type {number} */ now) => {
            const progress = Math.min(1, (now - start) / duration)
            window.scrollTo({ top: Math.round(progress * max), behavior: 'instant' })
            frames++
            if (progress < 1) requestAnimationFrame(step)
            else {
              performance.mark('bench:scroll-end')
              resolve({ height: max + window.innerHeight, frames, y: window.scrollY })
            }
          }
          requestAnimationFrame(step)
        }),
      SCROLL_MS,
    )
    await sleep(500)
    const buffer = await browser.stopTracing()
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    /** @type {{ traceEvents: TraceEvent[] }} */
    const trace = JSON.parse(buffer.toString('utf8'))
    return { ...analyseTrace(trace.traceEvents), scroll: scrolled }
  } finally {
    await browser.close()
  }
}

/**
 * A URL short enough for one line: the file name, or for a data: URL its type and, for an SVG,
 * its <title> (which names the illustration).
 * @param {string} url
 */
function shortUrl(url) {
  const data = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url)
  if (!data) return url.split('?')[0]?.split('/').pop() || url
  const [, type, base64, payload = ''] = data
  let text = ''
  try {
    text = base64 ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload)
  } catch {
    // undecodable: type only
  }
  const title = /<title>([^<]*)<\/title>/.exec(text)?.[1]
  // (Trace events cut long URLs in the middle, so the payload's size is not known here.)
  return `data:${type}${title ? ` "${title}"` : ''}`
}

/**
 * The page's renderer main thread is the one that recorded the scroll marks; its top-level
 * tasks are RunTask / ThreadControllerImpl::RunTask complete events.
 * @param {TraceEvent[]} events
 */
function analyseTrace(events) {
  const mark = (/** @type {string} */ name) => events.find((event) => event.name === name)
  const start = mark('bench:scroll-start')
  const end = mark('bench:scroll-end')
  if (!start || !end) throw new Error('The trace has no scroll marks')
  const mainThread = events.find(
    (event) =>
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.pid === start.pid &&
      event.args?.name === 'CrRendererMain',
  )
  const tid = mainThread?.tid ?? start.tid
  const taskEvents = events
    .filter(
      (event) =>
        event.pid === start.pid &&
        event.tid === tid &&
        event.ph === 'X' &&
        (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask') &&
        typeof event.dur === 'number',
    )
    .map((event) => ({
      ts: event.ts,
      end: event.ts + /** @type {number} */ (event.dur),
      cpu: event.tdur ?? event.dur ?? 0,
    }))
    .sort((a, b) => a.ts - b.ts || b.end - a.end)
  // RunTask and ThreadControllerImpl::RunTask nest: keep the outermost of each task.
  /** @type {{ ts: number, end: number, cpu: number, ms: number }[]} */
  const tasks = []
  let outerEnd = -Infinity
  for (const event of taskEvents) {
    if (event.end <= outerEnd) continue
    outerEnd = event.end
    tasks.push({ ...event, ms: (event.end - event.ts) / 1000 })
  }
  // The scroll window, plus the 500 ms after the last step: work the scroll set off (observers,
  // late hydration) counts too.
  const windowEnd = end.ts + 500_000
  const during = tasks.filter((task) => task.end >= start.ts && task.ts <= windowEnd)
  const before = tasks.filter((task) => task.end < start.ts)
  const top = (/** @type {{ ms: number }[]} */ list) =>
    list
      .map((task) => task.ms)
      .sort((a, b) => b - a)
      .slice(0, 5)
      .map((ms) => Math.round(ms * 10) / 10)
  // Chromium's throttler slows the main thread in a way that still counts as thread CPU time
  // (measured: 4× gives wall ≈ thread time ≈ 4× the unthrottled time), so a task's thread time
  // is its throttled length without the time it waited for a CPU. Wall time well above it
  // means other processes held the CPUs, not that the page did more work.
  const threadTime = (/** @type {{ cpu: number }} */ task) => Math.round(task.cpu / 100) / 10
  // What the longest scroll tasks did: their biggest inner events (nested events overlap).
  const threadEvents = events.filter(
    (event) =>
      event.pid === start.pid &&
      event.tid === tid &&
      event.ph === 'X' &&
      typeof event.dur === 'number' &&
      event.name !== 'RunTask' &&
      event.name !== 'ThreadControllerImpl::RunTask',
  )
  const longestScrollTasks = [...during]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((task) => {
      /** @type {Map<string, number>} */
      const inner = new Map()
      for (const event of threadEvents) {
        if (event.ts < task.ts || event.ts + /** @type {number} */ (event.dur) > task.end) continue
        const data = event.args?.data ?? event.args?.beginData ?? {}
        const where = [data.functionName, data.url ? shortUrl(String(data.url)) : '']
          .filter(Boolean)
          .join(' ')
        const label = where ? `${event.name} (${where})` : event.name
        inner.set(label, Math.max(inner.get(label) ?? 0, /** @type {number} */ (event.dur)))
      }
      return {
        ms: Math.round(task.ms * 10) / 10,
        threadMs: threadTime(task),
        atMs: Math.round((task.ts - start.ts) / 1000),
        inside: [...inner]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([label, dur]) => `${label} ${Math.round(dur / 100) / 10} ms`),
      }
    })
  const longestByCpu = Math.max(0, ...during.map(threadTime))
  const waited = during.filter((task) => task.ms > 20 && task.ms > 1.5 * threadTime(task)).length
  return {
    longestScrollTasks,
    longestScrollTaskThreadMs: longestByCpu,
    scrollTasksThatWaitedForCpu: waited,
    longestScrollTaskMs: top(during)[0] ?? 0,
    topScrollTasksMs: top(during),
    scrollTasks: during.length,
    tasksOver50MsWhileScrolling: during.filter((task) => task.ms > 50).length,
    longestLoadTaskMs: top(before)[0] ?? 0,
    topLoadTasksMs: top(before),
    scrollWallMs: Math.round((end.ts - start.ts) / 1000),
  }
}

// ---------------------------------------------------------------------------------------------
// Report

/** @param {number} value @param {'score' | 's' | 'ms' | 'cls'} unit */
function format(value, unit) {
  if (unit === 'score') return String(value)
  if (unit === 's') return `${(value / 1000).toFixed(2)} s`
  if (unit === 'ms') return `${Math.round(value)} ms`
  return value.toFixed(3)
}

/** The median run's full Lighthouse report (open it in https://googlechrome.github.io/lighthouse/viewer/). */
const reportName = (/** @type {string} */ path) =>
  `lighthouse-${path === '/' ? 'home' : path.slice(1).replaceAll('/', '-')}.report.json`

const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`

/** @param {RunFigures} run @param {string} key */
function figure(run, key) {
  if (key in run.scores) return run.scores[key] ?? 0
  return /** @type {number} */ (run[/** @type {'fcp' | 'lcp' | 'tbt' | 'cls'} */ (key)])
}

/** @param {{ target: number, unit: string }} target @param {number} value */
function meets(target, value) {
  return target.unit === 'score' ? value >= target.target : value <= target.target
}

/**
 * @param {string} path @param {RunFigures} median @param {RunFigures[]} runs
 * @returns {boolean} whether every target is met
 */
function printPage(path, median, runs) {
  const rows = [['Metric', 'Median', 'Target', '', 'Runs']]
  let ok = true
  for (const target of TARGETS) {
    const value = figure(median, target.key)
    const pass = meets(target, value)
    ok &&= pass
    rows.push([
      target.label,
      format(value, target.unit),
      `${target.unit === 'score' ? '' : '≤ '}${format(target.target, target.unit)}`,
      pass ? '✓' : '✗',
      runs.map((run) => format(figure(run, target.key), target.unit)).join(' | '),
    ])
  }
  rows.push([
    'Speed Index',
    format(median.speedIndex, 's'),
    '',
    '',
    runs.map((run) => format(run.speedIndex, 's')).join(' | '),
  ])
  rows.push(['Total transferred', kb(median.totalBytes), '', '', `${median.requests} requests`])
  rows.push(['JavaScript transferred', kb(median.scriptBytes), '', '', ''])
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  console.log(`\n${path}  (median of ${runs.length} Lighthouse runs, mobile, simulated throttling)`)
  for (const [index, row] of rows.entries()) {
    console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`.trimEnd())
    if (index === 0) console.log(`  ${widths.map((width) => '-'.repeat(width)).join('  ')}`)
  }
  if (median.failing.length > 0) {
    console.log(`  Failing audits (median run, categories below 100):`)
    for (const audit of median.failing) {
      const score = audit.score === null ? 'error' : audit.score.toFixed(2)
      const weight = audit.weight > 0 ? `, weight ${audit.weight}` : ''
      const value = audit.displayValue ? ` — ${audit.displayValue}` : ''
      console.log(
        `    [${audit.category}] ${audit.id} (score ${score}${weight}): ${audit.title}${value}`,
      )
      for (const item of audit.items) console.log(`        ${item}`)
    }
  }
  for (const target of TARGETS) {
    const metric = { fcp: 'FCP', lcp: 'LCP', tbt: 'TBT', cls: 'CLS' }[target.key]
    if (!metric || meets(target, figure(median, target.key))) continue
    const clues = median.clues[metric] ?? []
    console.log(`  Where the ${metric} time goes (median run):`)
    for (const clue of clues.length > 0 ? clues : ['(Lighthouse names no cause)']) {
      console.log(`    ${clue}`)
    }
  }
  for (const warning of new Set(runs.flatMap((run) => run.warnings))) {
    console.log(`  Lighthouse warning: ${warning}`)
  }
  return ok
}

// ---------------------------------------------------------------------------------------------

/** The machine's 1-minute load average against its CPU count: a busy machine skews timings. */
function machineLoad() {
  const cpus = availableParallelism()
  const load = Math.round(loadavg()[0] * 100) / 100
  return { cpus, load, busy: load > cpus * 0.5 }
}

async function main() {
  const began = Date.now()
  const loadBefore = machineLoad()
  if (!skipBuild) {
    console.log('Building (node scripts/build.mjs)…')
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' })
  }
  let server = await startServer()
  console.log(`Server up at ${server.origin}/`)
  /** The server, restarted if something stopped it (other processes share this machine). */
  const liveServer = async () => {
    const exit = server.exit()
    if (exit !== null) {
      console.log(`\nThe server ${exit}\nRestarting it.`)
      server = await startServer()
    }
    return server.origin
  }

  /** @type {Record<string, { median: RunFigures, runs: RunFigures[] }>} */
  const pages = {}
  for (const path of PAGES) {
    const runs = []
    for (let run = 1; run <= RUNS; run++) {
      process.stdout.write(`Lighthouse ${path} run ${run}/${RUNS}… `)
      const t0 = Date.now()
      /** @type {RunFigures} */
      let figures
      try {
        figures = await lighthouseRun(`${await liveServer()}${path}`)
      } catch (error) {
        // One retry: a run can fail for reasons outside the site (a stopped server, a browser
        // that did not start); a second failure is reported.
        console.log(`failed (${error instanceof Error ? error.message : error}); retrying… `)
        figures = await lighthouseRun(`${await liveServer()}${path}`)
      }
      console.log(
        `perf ${figures.scores.performance}, LCP ${format(figures.lcp, 's')} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      )
      runs.push(figures)
    }
    pages[path] = { median: medianRun(runs), runs }
  }

  console.log(`Tracing a ${SCROLL_MS / 1000} s scroll of / (390×844, CPU ${CPU_SLOWDOWN}× slower)…`)
  const trace = await scrollTrace(await liveServer())

  let allMet = true
  for (const path of PAGES) {
    const { median, runs } = /** @type {{ median: RunFigures, runs: RunFigures[] }} */ (pages[path])
    allMet = printPage(path, median, runs) && allMet
  }
  const taskOk = trace.longestScrollTaskMs <= LONGEST_TASK_TARGET_MS
  allMet &&= taskOk
  console.log(
    `\nScroll trace of / (390×844, ${CPU_SLOWDOWN}× CPU throttling, ${trace.scrollWallMs} ms, ${trace.scroll.frames} frames, ${trace.scroll.height} px page)`,
  )
  console.log(
    `  Longest main-thread task while scrolling: ${trace.longestScrollTaskMs} ms ` +
      `(target ≤ ${LONGEST_TASK_TARGET_MS} ms) ${taskOk ? '✓' : '✗'}`,
  )
  console.log(
    `  Top tasks while scrolling: ${trace.topScrollTasksMs.join(', ')} ms; ${trace.tasksOver50MsWhileScrolling} over 50 ms of ${trace.scrollTasks}`,
  )
  console.log(
    `  Longest by thread time (throttled, without waits for a busy CPU): ` +
      `${trace.longestScrollTaskThreadMs} ms; ${trace.scrollTasksThatWaitedForCpu} task(s) ` +
      `waited for a CPU (wall > 1.5 × thread time)`,
  )
  for (const task of trace.longestScrollTasks) {
    console.log(
      `    ${task.ms} ms task (thread time ${task.threadMs} ms) at +${task.atMs} ms: ` +
        task.inside.join('; '),
    )
  }
  console.log(
    `  For reference, longest task during load (before the scroll): ${trace.longestLoadTaskMs} ms (top: ${trace.topLoadTasksMs.join(', ')} ms)`,
  )

  const loadAfter = machineLoad()
  if (loadBefore.busy) {
    console.log(
      `\n⚠ The machine was busy when the bench started (load average ${loadBefore.load} on ` +
        `${loadBefore.cpus} CPUs): CPU-bound figures (TBT, task lengths, simulated FCP/LCP) are ` +
        `inflated and noisy. Re-run on an idle machine before acting on them.`,
    )
  }

  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: loadAfter.cpus,
      loadAverageBefore: loadBefore.load,
      loadAverageAfter: loadAfter.load,
    },
    lighthouse: createRequire(import.meta.url)('lighthouse/package.json').version,
    chromium: execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim(),
    settings: { formFactor: 'mobile', throttling: 'simulate (Lighthouse defaults)', runs: RUNS },
    targets: {
      ...Object.fromEntries(TARGETS.map((target) => [target.key, target.target])),
      longestScrollTaskMs: LONGEST_TASK_TARGET_MS,
    },
    pages: Object.fromEntries(
      Object.entries(pages).map(([path, { median, runs }]) => [
        path,
        {
          median: { ...median, lhr: undefined },
          report: `bench-results/${reportName(path)}`,
          met: Object.fromEntries(
            TARGETS.map((target) => [target.key, meets(target, figure(median, target.key))]),
          ),
          runs: runs.map((run) => ({
            ...run,
            lhr: undefined,
            failing: run.failing.map((audit) => audit.id),
          })),
        },
      ]),
    ),
    scrollTrace: { ...trace, met: taskOk },
    allTargetsMet: allMet,
    durationSeconds: Math.round((Date.now() - began) / 1000),
  }
  await mkdir(join(root, 'bench-results'), { recursive: true })
  for (const [path, { median }] of Object.entries(pages)) {
    await writeFile(join(root, 'bench-results', reportName(path)), JSON.stringify(median.lhr))
  }
  await writeFile(
    join(root, 'bench-results', 'lighthouse.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  )
  console.log(
    `\n${allMet ? 'All targets met.' : 'Some targets missed (✗ above).'} ` +
      `Wrote bench-results/lighthouse.json in ${results.durationSeconds} s.`,
  )
  return allMet
}

const watchdog = setTimeout(() => {
  console.error(`The bench took over ${BENCH_TIMEOUT_MS / 60000} minutes: stopping.`)
  void cleanUp().finally(() => process.exit(1))
}, BENCH_TIMEOUT_MS)
watchdog.unref()

try {
  const allMet = await main()
  process.exitCode = strict && !allMet ? 1 : 0
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
} finally {
  await cleanUp()
}
