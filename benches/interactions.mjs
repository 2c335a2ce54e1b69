// `npm run bench:interactions`: how fast the home page answers a visitor's taps and keys (the
// Event Timing API, the data behind INP) and how smooth it scrolls, for our production build
// and the conventional SPA peer, in the same run and with the same script.
//
//   1. builds ours (node pipeline/build.mjs; skip with --no-build) and starts build/server/main.js
//      on a free loopback port with a temporary DATA_DIR;
//      --also=DIR serves another build beside it (the dist/ of an earlier commit, named after
//      DIR's parent folder), measured in the same runs;
//   2. copies the peer (PEER_DIR, default ../shared/peers/conventional-spa beside the repository;
//      none there: it says so and measures ours alone) to
//      $TMPDIR/gaspre-peer/, installs and builds it there once (never inside the shared folder;
//      --rebuild-peer starts over, --no-peer skips it) and serves its dist/ with its own `serve`;
//   3. for each CPU slowdown (--cpu=4,6 by default: a mid-range phone and a low-end Android; CDP
//      Emulation.setCPUThrottlingRate), RUNS times, for each site, in a fresh Chromium context:
//      loads /, waits until it has hydrated and for the benches' quiet period (settings.mjs),
//      then makes each interaction below and keeps the longest Event Timing entry
//      (durationThreshold 16 ms) among the interactions it caused;
//   4. the scroll trace of scroll.mjs, for each site (at the benches' shared 4×);
//   5. prints the medians as a table per slowdown with the worst interaction (INP) and how ours
//      compares with the peer's, and writes bench-results/interactions.json.
//
// Figures are printed, never asserted: this machine is shared and timings are noisy. The 1-minute
// load average is printed beside them. Exits 1 only when the bench itself failed.

import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { PEER_DIR, startPeer as startPeerSite } from './peer.mjs'
import { DESKTOP, INTERACTION_CPU_SLOWDOWNS, PHONE, QUIET_AFTER_HYDRATION_MS } from './settings.mjs'
import {
  describeScrollTrace,
  SCROLL_TASK_TARGET_MS,
  SCROLL_TRACE_TITLE,
  scrollTrace,
} from './scroll.mjs'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'
import { markHydratedOnceRendered, waitForHydration } from '../testing/hydration.mjs'
import { startSite } from '../testing/site.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const argv = process.argv.slice(2)
const option = (/** @type {string} */ name) => argv.includes(name)
const numberOption = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const value = argv.find((arg) => arg.startsWith(`${name}=`))?.split('=')[1]
  return value ? Number(value) : fallback
}
const RUNS = numberOption('--runs', 5)
const INTERACTION_TARGET_MS = 100
const CPU_RATES = (argv.find((arg) => arg.startsWith('--cpu='))?.split('=')[1] ?? '')
  .split(',')
  .filter(Boolean)
  .map(Number)
const SLOWDOWNS = CPU_RATES.length > 0 ? CPU_RATES : INTERACTION_CPU_SLOWDOWNS
if (SLOWDOWNS.some((rate) => !(rate >= 1)))
  throw new Error('--cpu takes rates of 1 or more: --cpu=4,6')
const only = argv.find((arg) => arg.startsWith('--only='))?.split('=')[1]
const PEER = 'peer (SPA)'

const sleep = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms))

/** @type {(() => Promise<unknown> | unknown)[]} */
const cleanups = []
async function cleanUp() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()?.()
    } catch (error) {
      console.error('cleanup:', error instanceof Error ? error.message : error)
    }
  }
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(130)))
}

// ---------------------------------------------------------------------------------------------
// Servers

/** Our production server on a build (dist/ by default), with a throw-away DATA_DIR. */
async function startOurs(dir = join(root, 'dist')) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-bench-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const site = await startSite({
    host: 'node',
    build: { dir },
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  })
  cleanups.push(site.stop)
  return site.origin
}

/** The peer (benches/peer.mjs), stopped with the rest. */
async function startPeer() {
  const site = await startPeerSite({ rebuild: option('--rebuild-peer') })
  cleanups.push(site.stop)
  return site.origin
}

// ---------------------------------------------------------------------------------------------
// Interactions

/**
 * Runs in the page before its own scripts: keeps every Event Timing entry of 16 ms or more.
 * (Entries are rounded to 8 ms by the browser; shorter interactions report none.)
 */
function recordEventTiming() {
  /** @type {any} */ window.__eventTiming = []
  new PerformanceObserver((list) => {
    for (const entry of /** @type {any[]} */ (list.getEntries())) {
      /** @type {any} */ window.__eventTiming.push({
        name: entry.name,
        interactionId: entry.interactionId,
        startTime: entry.startTime,
        duration: entry.duration,
        processingStart: entry.processingStart,
        processingEnd: entry.processingEnd,
      })
    }
    // @ts-expect-error durationThreshold is part of the Event Timing API
  }).observe({ type: 'event', durationThreshold: 16, buffered: true })
}

/**
 * @typedef {{ name: string, origin: string,
 *   prepare?: (context: import('playwright-core').BrowserContext) => Promise<void> }} Site
 * @typedef {import('playwright-core').Page} Page
 * @typedef {{ name: string, layout: 'phone' | 'desktop', prepare?: (page: Page) => Promise<void>,
 *   act: (page: Page) => Promise<void>, typical?: { name: string, count: number } }} Interaction
 *   typical: an act made of `count` interactions (keys) is also reported by its median one
 */

const VALID = {
  user_name: 'Ana López',
  user_email: 'ana.lopez@example.com',
  user_phone: '55 1234 5678',
  user_group: 'Grupo Estaciones del Norte',
}
const menuButton = (/** @type {Page} */ page) => page.locator('header button[aria-expanded]')
const form = (/** @type {Page} */ page) => page.locator('#solicitar-demo-gratis form').first()
const field = (/** @type {Page} */ page, /** @type {string} */ name) =>
  form(page).locator(`[name="${name}"]`)
const submitButton = (/** @type {Page} */ page) =>
  form(page).locator('button[type="submit"], input[type="submit"]').first()

/** In the order a visitor on a phone would make them; the arrows exist from 768 px only. */
/** @type {Interaction[]} */
const INTERACTIONS = [
  { name: 'Menu: open', layout: 'phone', act: (page) => menuButton(page).click() },
  { name: 'Menu: close', layout: 'phone', act: (page) => menuButton(page).click() },
  {
    name: 'Carousel: dot 3',
    layout: 'phone',
    act: (page) => page.getByRole('button', { name: 'Ir a la diapositiva 3' }).click(),
  },
  {
    name: "'Ver video': open",
    layout: 'phone',
    prepare: async (page) => {
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    },
    act: (page) => page.getByRole('button', { name: 'Ver video' }).first().click(),
  },
  {
    name: "'Ver video': close",
    layout: 'phone',
    prepare: async (page) => {
      await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).waitFor()
    },
    act: (page) => page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click(),
  },
  {
    name: 'Form: focus a field',
    layout: 'phone',
    prepare: async (page) => {
      await page.getByRole('dialog').waitFor({ state: 'hidden' })
    },
    act: (page) => field(page, 'user_name').click(),
  },
  {
    name: 'Form: typing (worst key)',
    // The worst of nine keys is mostly the first (it makes the required field valid, and in the
    // peer starts nothing else): the median key tells what every other key costs.
    typical: { name: 'Form: typing (median key)', count: VALID.user_name.length },
    layout: 'phone',
    act: (page) => field(page, 'user_name').pressSequentially(VALID.user_name, { delay: 150 }),
  },
  {
    name: 'Submit with empty fields',
    layout: 'phone',
    prepare: async (page) => {
      await field(page, 'user_name').fill('')
    },
    act: (page) => submitButton(page).click(),
  },
  {
    name: 'Submit with valid data',
    layout: 'phone',
    prepare: async (page) => {
      for (const [name, value] of Object.entries(VALID)) await field(page, name).fill(value)
    },
    act: (page) => submitButton(page).click(),
  },
  {
    name: 'Carousel: next arrow',
    layout: 'desktop',
    act: (page) => page.getByRole('button', { name: 'Diapositiva siguiente' }).first().click(),
  },
]

/** Waits until the page has painted twice and the event entries have been delivered. */
async function settle(/** @type {Page} */ page, ms = 300) {
  await page.evaluate(
    () =>
      new Promise((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))),
      ),
  )
  await sleep(ms)
}

/**
 * @typedef {{ duration: number, inputDelay: number, processing: number, presentation: number,
 *   event: string }} Measured
 */

/** @param {any} entry @returns {Measured} */
const measuredOf = (entry) =>
  entry
    ? {
        duration: entry.duration,
        inputDelay: entry.processingStart - entry.startTime,
        processing: entry.processingEnd - entry.processingStart,
        presentation: entry.startTime + entry.duration - entry.processingEnd,
        event: entry.name,
      }
    : { duration: 0, inputDelay: 0, processing: 0, presentation: 0, event: '' }

/**
 * The median of `count` interactions by their longest entries; those with no entry (all under
 * the 16 ms threshold) count as the shortest.
 * @param {any[]} entries @param {number} count @returns {Measured}
 */
function medianInteraction(entries, count) {
  /** @type {Map<number, any>} */
  const longest = new Map()
  for (const entry of entries) {
    const kept = longest.get(entry.interactionId)
    if (!kept || entry.duration > kept.duration) longest.set(entry.interactionId, entry)
  }
  const sorted = [...longest.values()].sort((a, b) => a.duration - b.duration)
  const unseen = Math.max(0, count - sorted.length)
  return measuredOf(sorted[Math.floor((count - 1) / 2) - unseen])
}

/**
 * Makes one interaction and returns its longest Event Timing entry (0 when every entry was
 * under the 16 ms threshold), and its median interaction when it is made of several.
 * @param {Page} page @param {Interaction} interaction
 * @returns {Promise<{ worst: Measured, typical?: Measured }>}
 */
async function measure(page, interaction) {
  await interaction.prepare?.(page)
  // Scroll it into view first and let that settle, so the scroll's own work is not measured.
  await settle(page, 600)
  const t0 = await page.evaluate(() => performance.now())
  await interaction.act(page)
  await settle(page, 500)
  /** @type {any[]} */
  const entries = await page.evaluate(
    (since) =>
      /** @type {any} */ (window).__eventTiming.filter(
        (/** @type {any} */ entry) => entry.startTime >= since && entry.interactionId > 0,
      ),
    t0,
  )
  const worst = measuredOf([...entries].sort((a, b) => b.duration - a.duration)[0])
  const { typical } = interaction
  return typical ? { worst, typical: medianInteraction(entries, typical.count) } : { worst }
}

/**
 * One run of every interaction of one layout, in a fresh context (empty storage and cache).
 * @param {import('playwright-core').Browser} browser @param {Site} site
 * @param {'phone' | 'desktop'} layout @param {number} slowdown the CPU throttling rate
 */
async function runLayout(browser, site, layout, slowdown) {
  const context = await browser.newContext(layout === 'phone' ? PHONE : DESKTOP)
  try {
    await site.prepare?.(context)
    const page = await context.newPage()
    await page.addInitScript(recordEventTiming)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
    await page.goto(`${site.origin}/`, { waitUntil: 'load' })
    await waitForHydration(page)
    await sleep(QUIET_AFTER_HYDRATION_MS)
    /** @type {Record<string, Measured>} */
    const results = {}
    for (const interaction of INTERACTIONS.filter((each) => each.layout === layout)) {
      if (only && !interaction.name.toLowerCase().includes(only.toLowerCase())) continue
      const { worst, typical } = await measure(page, interaction)
      results[interaction.name] = worst
      if (interaction.typical && typical) results[interaction.typical.name] = typical
    }
    return results
  } finally {
    await context.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0
    ? 0
    : /** @type {number} */ (sorted[Math.floor((sorted.length - 1) / 2)])
}
const ms = (/** @type {number} */ value) => (value < 16 ? '<16' : `${Math.round(value)}`)
const load = () => Math.round(loadavg()[0] * 100) / 100

/**
 * @param {string[][]} rows
 */
function printTable(rows) {
  const widths = /** @type {string[]} */ (rows[0]).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  )
  for (const [index, row] of rows.entries()) {
    console.log(
      `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
    )
    if (index === 0) console.log(`  ${widths.map((width) => '-'.repeat(width)).join('  ')}`)
  }
}

/**
 * The medians of one slowdown's runs, per site and interaction, with the phases of the run whose
 * duration is the median one.
 * @param {Site[]} sites @param {string[]} names
 * @param {Record<string, Record<string, Measured[]>>} runs by site, then interaction
 */
function mediansOf(sites, names, runs) {
  /** @type {Record<string, Record<string, { median: number, runs: number[], phases: Record<string, number>, event: string }>>} */
  const medians = {}
  for (const site of sites) {
    /** @type {Record<string, any>} */
    const perInteraction = (medians[site.name] = {})
    for (const name of names) {
      const list = runs[site.name]?.[name] ?? []
      const durations = list.map((each) => each.duration)
      const middle = median(durations)
      const chosen = list.find((each) => each.duration === middle) ?? list[0]
      perInteraction[name] = {
        median: middle,
        runs: durations,
        event: chosen?.event ?? '',
        phases: {
          inputDelay: Math.round(chosen?.inputDelay ?? 0),
          processing: Math.round(chosen?.processing ?? 0),
          presentation: Math.round(chosen?.presentation ?? 0),
        },
      }
    }
  }
  return medians
}

/**
 * Prints one slowdown's table: each interaction's median and runs per site, the worst one
 * (INP), and ours against the peer's.
 * @param {Site[]} sites @param {string[]} names @param {number} slowdown
 * @param {ReturnType<typeof mediansOf>} medians
 */
function printSlowdown(sites, names, slowdown, medians) {
  console.log(
    `\nInteractions on / (Event Timing, longest entry per interaction, CPU ${slowdown}× slower, ` +
      `median of ${RUNS}; phone 390×844 except the arrow at 1280×800; target ≤ ${INTERACTION_TARGET_MS} ms)`,
  )
  const header = ['Interaction', ...sites.flatMap((site) => [site.name, `${site.name} runs`])]
  header.splice(2, 0, 'delay/processing/paint')
  /** @type {string[][]} */
  const rows = [header]
  for (const name of names) {
    const ours = medians[sites[0]?.name ?? '']?.[name]
    const row = [name]
    for (const [index, site] of sites.entries()) {
      const figures = medians[site.name]?.[name]
      row.push(
        figures
          ? `${ms(figures.median)} ms${index === 0 ? (figures.median <= INTERACTION_TARGET_MS ? ' ✓' : ' ✗') : ''}`
          : '–',
      )
      if (index === 0) {
        row.push(
          ours
            ? `${ours.phases.inputDelay}/${ours.phases.processing}/${ours.phases.presentation} ${ours.event}`
            : '',
        )
      }
      row.push(figures ? figures.runs.map(ms).join(' ') : '')
    }
    rows.push(row)
  }
  const inp = Object.fromEntries(
    sites.map((site) => [
      site.name,
      Math.max(0, ...names.map((name) => medians[site.name]?.[name]?.median ?? 0)),
    ]),
  )
  const worstRow = ['Worst interaction (INP)']
  for (const [index, site] of sites.entries()) {
    const value = inp[site.name] ?? 0
    worstRow.push(
      `${ms(value)} ms${index === 0 ? (value <= INTERACTION_TARGET_MS ? ' ✓' : ' ✗') : ''}`,
    )
    if (index === 0) worstRow.push('')
    worstRow.push('')
  }
  rows.push(worstRow)
  printTable(rows)
  console.log("  (delay/processing/paint: GASPRE's median run, ms, and the event that was longest)")
  const peer = inp[PEER] ?? 0
  for (const site of sites.filter((each) => each.name !== PEER && peer > 0)) {
    const ours = inp[site.name] ?? 0
    console.log(
      `  Worst interaction: ${site.name} ${ms(ours)} ms, the peer's ${ms(peer)} ms: ${(ours / peer).toFixed(2)}×.`,
    )
  }
  return inp
}

async function main() {
  const began = Date.now()
  const loadBefore = load()
  if (!option('--no-build')) {
    console.log('Building (node pipeline/build.mjs)…')
    execFileSync(process.execPath, ['pipeline/build.mjs'], { cwd: root, stdio: 'inherit' })
  }
  /** @type {Site[]} */
  const sites = [{ name: 'GASPRE', origin: await startOurs() }]
  // --also=DIR: another build of this site (the dist/ of an earlier commit, say) beside this one,
  // in the same runs, so a change is measured under the same load as what it replaces.
  const also = argv.find((arg) => arg.startsWith('--also='))?.split('=')[1]
  if (also)
    sites.push({
      name: `GASPRE ${basename(resolve(also, '..'))}`,
      origin: await startOurs(resolve(also)),
    })
  if (!option('--no-peer') && !existsSync(PEER_DIR)) {
    // A checkout without the shared folder beside it: ours is still worth measuring.
    console.log(`No peer at ${PEER_DIR} (set PEER_DIR to it): measuring ours alone.`)
  } else if (!option('--no-peer')) {
    // The peer has no islands: it counts as hydrated once it has rendered (testing/hydration.mjs).
    sites.push({ name: PEER, origin: await startPeer(), prepare: markHydratedOnceRendered })
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  cleanups.push(() => browser.close())

  /** @type {Record<number, Record<string, Record<string, Measured[]>>>} by slowdown, site, interaction */
  const runs = {}
  /** @type {Record<string, Awaited<ReturnType<typeof scrollTrace>>>} */
  const scroll = {}
  for (const slowdown of SLOWDOWNS) {
    const atRate = (runs[slowdown] = Object.fromEntries(sites.map((site) => [site.name, {}])))
    for (let run = 1; run <= RUNS; run++) {
      // Sites alternate inside each run, so a burst of load on the machine hits both alike.
      for (const site of sites) {
        process.stdout.write(`CPU ${slowdown}×, run ${run}/${RUNS}: ${site.name}… `)
        for (const layout of /** @type {const} */ (['phone', 'desktop'])) {
          const results = await runLayout(browser, site, layout, slowdown)
          for (const [name, measured] of Object.entries(results)) {
            ;((atRate[site.name] ??= {})[name] ??= []).push(measured)
          }
        }
        console.log(`load ${load()}`)
      }
    }
  }
  if (!option('--no-scroll')) {
    for (const site of sites) {
      process.stdout.write(`Scroll trace: ${site.name}… `)
      scroll[site.name] = await scrollTrace(browser, site.origin, site.prepare)
      console.log('done')
    }
  }

  const names = INTERACTIONS.flatMap((each) =>
    each.typical ? [each.name, each.typical.name] : [each.name],
  ).filter((name) =>
    SLOWDOWNS.some((slowdown) => sites.some((site) => runs[slowdown]?.[site.name]?.[name])),
  )
  const loadAfter = load()
  /** @type {Record<number, ReturnType<typeof mediansOf>>} */
  const interactions = {}
  /** @type {Record<number, Record<string, number>>} */
  const inp = {}
  for (const slowdown of SLOWDOWNS) {
    interactions[slowdown] = mediansOf(sites, names, runs[slowdown] ?? {})
    inp[slowdown] = printSlowdown(sites, names, slowdown, interactions[slowdown])
  }

  if (Object.keys(scroll).length > 0) {
    console.log(`\n${SCROLL_TRACE_TITLE}`)
    for (const [index, site] of sites.entries()) {
      const trace = scroll[site.name]
      if (!trace) continue
      const [summary, ...tasks] = describeScrollTrace(trace, { withTarget: index === 0 })
      console.log(`  ${site.name}: ${summary}`)
      for (const task of tasks) console.log(`  ${task}`)
    }
  }
  console.log(
    `\nLoad average (1 min) on ${availableParallelism()} CPUs: ${loadBefore} at the start, ${loadAfter} at the end.` +
      // The bench keeps about one CPU busy itself (Chromium throttled, two servers): only load
      // beyond that, or load before it began, is someone else's.
      (loadBefore > availableParallelism() * 0.5 || loadAfter > availableParallelism()
        ? ' The machine was busy: figures are inflated; re-run it idle.'
        : ''),
  )

  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: availableParallelism(),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    chromium: execFileSync(CHROMIUM_PATH, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim(),
    settings: {
      runs: RUNS,
      cpuSlowdowns: SLOWDOWNS,
      phone: PHONE,
      desktop: DESKTOP,
      durationThresholdMs: 16,
    },
    targets: { interactionMs: INTERACTION_TARGET_MS, scrollTaskMs: SCROLL_TASK_TARGET_MS },
    // By CPU slowdown, then site, then interaction.
    interactions,
    inp,
    scroll,
    durationSeconds: Math.round((Date.now() - began) / 1000),
  }
  await mkdir(join(root, 'bench-results'), { recursive: true })
  await writeFile(
    join(root, 'bench-results/interactions.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  )
  console.log(`Wrote bench-results/interactions.json in ${results.durationSeconds} s.`)
}

try {
  await main()
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error)
  process.exitCode = 1
} finally {
  await cleanUp()
}
