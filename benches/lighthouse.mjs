// npm run bench: Lighthouse (its Node API, default mobile config, simulated throttling) RUNS
// times per page against the production server, and on the conventional SPA peer's `/` in the
// same runs (benches/peer.mjs), the median run by Lighthouse's own computeMedianRun, its HTML
// report, the largest paint's element and its phases, the HTML's bytes on the wire, then the
// scroll trace of scroll.mjs. Each run also prints the two estimates Lighthouse averages into its largest paint (its simulation,
// Lantern: an optimistic one, and a pessimistic one that counts every request and every task
// that laid anything out before that paint), so a gap to the first paint can be traced.
//   --no-build  bench the existing build;  --dir=DIR  bench another build (an earlier dist/)
//   --runs=N    runs per page (3);  --no-peer  ours alone;  --no-scroll  no scroll trace
//   --only=/,/tyc  our pages to measure (all by default); the peer's `/` still runs beside them
//   CHROMIUM_PATH picks the browser.
// Writes bench-results/lighthouse.json and bench-results/lighthouse-<page>.html.
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { loadavg, availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js'
import { ReportGenerator } from 'lighthouse/report/generator/report-generator.js'
import { chromium } from 'playwright-core'
import { PEER_DIR, peerExists, startPeer } from './peer.mjs'
import { describeScrollTrace, SCROLL_TRACE_TITLE, scrollTrace } from './scroll.mjs'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'
import { startSite } from '../testing/site.ts'

const argv = process.argv.slice(2)
const option = (/** @type {string} */ name) => argv.includes(name)
const valueOf = (/** @type {string} */ name) =>
  argv.find((arg) => arg.startsWith(`${name}=`))?.split('=')[1]
const ALL_PAGES = { '/': 'home', '/tyc': 'terms' }
const ONLY = valueOf('--only')?.split(',')
const unknownPage = ONLY?.find((path) => !(path in ALL_PAGES))
if (unknownPage !== undefined)
  throw new Error(`--only takes ${Object.keys(ALL_PAGES).join(', ')}, not '${unknownPage}'`)
const PAGES = Object.fromEntries(
  Object.entries(ALL_PAGES).filter(([path]) => ONLY === undefined || ONLY.includes(path)),
)
const PEER_PAGES = { '/': 'peer-home' }
const RUNS = Number(valueOf('--runs') ?? 3)
const DIR = resolve(valueOf('--dir') ?? 'dist')
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const METRICS = {
  FCP: ['first-contentful-paint', (ms) => `${(ms / 1000).toFixed(2)} s`],
  LCP: ['largest-contentful-paint', (ms) => `${(ms / 1000).toFixed(2)} s`],
  TBT: ['total-blocking-time', (ms) => `${Math.round(ms)} ms`],
  CLS: ['cumulative-layout-shift', (value) => value.toFixed(3)],
}

/** One run in a fresh Chromium: cold cache, nothing shared with the other runs. */
async function lighthouseRun(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  })
  try {
    const result = await lighthouse(
      url,
      // predictive-perf is in no category: it reports the simulation's two estimates.
      { port: chrome.port, onlyCategories: CATEGORIES, onlyAudits: ['predictive-perf'] },
      { extends: 'lighthouse:default', audits: ['predictive-perf'] },
    )
    if (result?.lhr.runtimeError) throw new Error(result.lhr.runtimeError.message)
    return result.lhr
  } finally {
    chrome.kill()
  }
}

/** The largest paint's element and its phases (TTFB, load delay, load time, render delay). */
function largestPaint(lhr) {
  const tables = lhr.audits['largest-contentful-paint-element']?.details?.items ?? []
  const rows = tables.flatMap((table) => table.items ?? [])
  const node = rows.find((row) => row.node)?.node
  const phases = Object.fromEntries(
    rows.filter((row) => row.phase).map((row) => [row.phase, Math.round(row.timing)]),
  )
  return { element: node?.selector ?? node?.nodeLabel ?? '?', phases }
}

const figures = (lhr) => ({
  scores: Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ),
  ...Object.fromEntries(
    Object.entries(METRICS).map(([name, [audit]]) => [name, lhr.audits[audit].numericValue]),
  ),
  largestPaint: largestPaint(lhr),
  lantern: lanternEstimates(lhr),
  html: htmlBytes(lhr),
})

/** TCP's initial window, ten packets of 1,460 bytes: what a new connection's first round trip carries. */
const FIRST_ROUND_TRIP_BYTES = 14_600

/** The page's HTML as it crossed the wire (headers included, compressed) and as decoded. */
function htmlBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? []
  const html = items.find((item) => item.resourceType === 'Document')
  return html ? { onTheWire: html.transferSize, decoded: html.resourceSize } : undefined
}

/** The simulation's optimistic and pessimistic largest paint, whose mean Lighthouse reports. */
function lanternEstimates(lhr) {
  const values = lhr.audits['predictive-perf']?.details?.items?.[0]
  return values
    ? { optimisticLCP: values.optimisticLCP, pessimisticLCP: values.pessimisticLCP }
    : undefined
}

if (!option('--no-build') && !valueOf('--dir'))
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
const load = loadavg()[0]
if (load > availableParallelism() / 2)
  console.log(`⚠ Load average ${load.toFixed(2)}: CPU-bound figures will be inflated and noisy.`)
// The production server on a free port, with a throw-away outbox.
const server = await startSite({
  host: 'node',
  build: { dir: DIR },
  env: { DATA_DIR: 'bench-results/.data', LOG_LEVEL: 'warn' },
})
const withPeer = !option('--no-peer') && peerExists()
if (!option('--no-peer') && !withPeer)
  console.log(`No peer at ${PEER_DIR} (set PEER_DIR to it): measuring ours alone.`)
const peer = withPeer ? await startPeer() : undefined
try {
  await mkdir('bench-results', { recursive: true })
  const targets = [
    ...Object.entries(PAGES).map(([path, name]) => ({
      url: `${server.origin}${path}`,
      path,
      name,
    })),
    ...(peer
      ? Object.entries(PEER_PAGES).map(([path, name]) => ({
          url: `${peer.origin}${path}`,
          path: `peer ${path}`,
          name,
        }))
      : []),
  ]
  const results = { date: new Date().toISOString(), loadAverage: load, runs: RUNS, pages: {} }
  /** @type {Record<string, any[]>} */
  const runsOf = Object.fromEntries(targets.map(({ path }) => [path, []]))
  // The pages alternate inside each run, so a burst of load on the machine hits them alike.
  for (let run = 1; run <= RUNS; run++) {
    for (const { url, path } of targets) {
      console.log(`Lighthouse ${path} run ${run}/${RUNS}…`)
      // A trace Lighthouse could not read (NO_NAVSTART on a busy machine) is run once more.
      runsOf[path].push(
        await lighthouseRun(url).catch((error) => {
          console.log(`  ${error instanceof Error ? error.message : error}: once more…`)
          return lighthouseRun(url)
        }),
      )
    }
  }
  for (const { path, name } of targets) {
    const median = computeMedianRun(runsOf[path])
    await writeFile(
      `bench-results/lighthouse-${name}.html`,
      ReportGenerator.generateReport(median, 'html'),
    )
    results.pages[path] = { median: figures(median), runs: runsOf[path].map(figures) }
  }
  console.log(`\nMedian of ${RUNS} Lighthouse runs (mobile, simulated throttling)`)
  console.table(
    Object.fromEntries(
      Object.entries(results.pages).map(([path, { median }]) => [
        path,
        {
          ...median.scores,
          ...Object.fromEntries(
            Object.entries(METRICS).map(([name, [, format]]) => [name, format(median[name])]),
          ),
        },
      ]),
    ),
  )
  console.log(
    'Runs (FCP / LCP / TBT, ms; in brackets the simulated LCP, optimistic – pessimistic) and the largest paint of the median run, with its phases:',
  )
  const estimates = (run) =>
    run.lantern
      ? ` [${Math.round(run.lantern.optimisticLCP)}–${Math.round(run.lantern.pessimisticLCP)}]`
      : ''
  for (const [path, { median, runs }] of Object.entries(results.pages)) {
    const each = runs
      .map(
        (run) =>
          `${Math.round(run.FCP)}/${Math.round(run.LCP)}/${Math.round(run.TBT)}${estimates(run)}`,
      )
      .join('  ')
    const { element, phases } = median.largestPaint
    const phaseText = Object.entries(phases)
      .map(([phase, ms]) => `${phase} ${ms}`)
      .join(', ')
    console.log(`  ${path}: ${each}\n    LCP element ${element}: ${phaseText}`)
    if (median.html) {
      const { onTheWire, decoded } = median.html
      const trips = onTheWire <= FIRST_ROUND_TRIP_BYTES ? 'within' : 'beyond'
      console.log(
        `    HTML ${onTheWire} B on the wire (${decoded} B decoded), ${trips} a new connection's first round trip (${FIRST_ROUND_TRIP_BYTES} B)`,
      )
    }
  }
  const peerHome = results.pages['peer /']?.median
  const home = results.pages['/']?.median
  if (peerHome && home)
    console.log(
      `  / against the peer's: FCP ${(home.FCP / peerHome.FCP).toFixed(2)}×, LCP ${(home.LCP / peerHome.LCP).toFixed(2)}×, LCP − FCP ${Math.round(home.LCP - home.FCP)} ms`,
    )
  if (!option('--no-scroll')) {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
    try {
      results.scroll = await scrollTrace(browser, server.origin)
    } finally {
      await browser.close()
    }
    console.log(`\n${SCROLL_TRACE_TITLE}\n  ${describeScrollTrace(results.scroll).join('\n  ')}`)
  }
  await writeFile('bench-results/lighthouse.json', `${JSON.stringify(results, null, 2)}\n`)
  console.log('Wrote bench-results/lighthouse.json and the median runs as HTML reports.')
} finally {
  await server.stop()
  await peer?.stop()
}
