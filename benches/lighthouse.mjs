// npm run bench: Lighthouse (its Node API, default mobile config, simulated throttling) RUNS
// times per page against the production server, the median run by Lighthouse's own
// computeMedianRun, its HTML report, then the scroll trace of scroll.mjs.
//   --no-build  bench the existing build. CHROMIUM_PATH picks the browser.
// Writes bench-results/lighthouse.json and bench-results/lighthouse-<page>.html.
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { loadavg, availableParallelism } from 'node:os'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js'
import { ReportGenerator } from 'lighthouse/report/generator/report-generator.js'
import { chromium } from 'playwright-core'
import { describeScrollTrace, SCROLL_TRACE_TITLE, scrollTrace } from './scroll.mjs'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'
import { startSite } from '../testing/site.ts'

const PAGES = { '/': 'home', '/tyc': 'terms' }
const RUNS = 3
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
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: CATEGORIES })
    if (result?.lhr.runtimeError) throw new Error(result.lhr.runtimeError.message)
    return result.lhr
  } finally {
    chrome.kill()
  }
}

const figures = (lhr) => ({
  scores: Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ),
  ...Object.fromEntries(
    Object.entries(METRICS).map(([name, [audit]]) => [name, lhr.audits[audit].numericValue]),
  ),
})

if (!process.argv.includes('--no-build'))
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
const load = loadavg()[0]
if (load > availableParallelism() / 2)
  console.log(`⚠ Load average ${load.toFixed(2)}: CPU-bound figures will be inflated and noisy.`)
// The production server on a free port, with a throw-away outbox.
const server = await startSite({
  host: 'node',
  build: { dir: 'dist' },
  env: { DATA_DIR: 'bench-results/.data', LOG_LEVEL: 'warn' },
})
try {
  await mkdir('bench-results', { recursive: true })
  const results = { date: new Date().toISOString(), loadAverage: load, runs: RUNS, pages: {} }
  for (const [path, name] of Object.entries(PAGES)) {
    const runs = []
    for (let run = 1; run <= RUNS; run++) {
      console.log(`Lighthouse ${path} run ${run}/${RUNS}…`)
      runs.push(await lighthouseRun(`${server.origin}${path}`))
    }
    const median = computeMedianRun(runs)
    await writeFile(
      `bench-results/lighthouse-${name}.html`,
      ReportGenerator.generateReport(median, 'html'),
    )
    results.pages[path] = { median: figures(median), runs: runs.map(figures) }
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
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  try {
    results.scroll = await scrollTrace(browser, server.origin)
  } finally {
    await browser.close()
  }
  console.log(`\n${SCROLL_TRACE_TITLE}\n  ${describeScrollTrace(results.scroll).join('\n  ')}`)
  await writeFile('bench-results/lighthouse.json', `${JSON.stringify(results, null, 2)}\n`)
  console.log('Wrote bench-results/lighthouse.json and the median runs as HTML reports.')
} finally {
  await server.stop()
}
