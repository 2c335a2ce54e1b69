import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, test, waitForHydration } from './fixtures'

/**
 * Byte budgets of the production build. Bytes are deterministic, so they are asserted; timings
 * are measured by `npm run bench` instead.
 */
const DIST = 'dist'
const KB = 1000
// '/' hydrates its islands with React (about 68 kB of it); '/tyc' has no islands and loads only
// the shared DOM enhancements (1.9 kB), so React arriving there fails its budget.
const BUDGET = {
  '/': { html: 'index.html', js: 80 * KB, react: true },
  '/tyc': { html: 'tyc.html', js: 3 * KB, react: false },
} as const
// React's client runtime alone, gzipped: the chunk that holds it is at least this big.
const REACT_MIN = 50 * KB
const CSS_BUDGET = 15 * KB
const HOME_FIRST_LOAD_BUDGET = 250 * KB

const gzipSizeOf = (asset: string) => readFileSync(join(DIST, `${asset}.gz`)).byteLength

/**
 * Chunks that wait for the visitor: their first input in the form (see use-send-request.ts), or
 * a sent request with a booking address (the picker, decision 027).
 */
const ON_FIRST_INPUT = ['email-sdk-', 'send-to-own-server-', 'fallback-links-', 'booking-picker-']

/**
 * The JavaScript a page loads up front: its module entry, every chunk it preloads, and the
 * chunks those import by themselves right after the first paint. Only the chunks that wait for
 * the visitor are left out.
 */
function firstLoadScripts(html: string): string[] {
  const tags =
    /<script type="module"[^>]*src="\/([^"]+)"|<link rel="modulepreload"[^>]*href="\/([^"]+)"/g
  const scripts = new Set([...html.matchAll(tags)].map((match) => match[1] ?? match[2]!))
  for (const script of [...scripts]) {
    const code = readFileSync(join(DIST, script), 'utf8')
    for (const [, chunk] of code.matchAll(/["'`](?:\.\/|assets\/)([\w-]+\.js)["'`]/g)) {
      if (!ON_FIRST_INPUT.some((prefix) => chunk!.startsWith(prefix)))
        scripts.add(`assets/${chunk}`)
    }
  }
  return [...scripts]
}

test.describe('byte budgets', () => {
  test.skip(({ isMobile }) => isMobile, 'bytes do not depend on the viewport')

  for (const [path, budget] of Object.entries(BUDGET)) {
    test(`${path} loads at most ${budget.js / KB} kB of gzipped JavaScript (${budget.react ? 'React included' : 'no React'}) and ${CSS_BUDGET / KB} kB of CSS`, async () => {
      const html = readFileSync(join(DIST, budget.html), 'utf8')
      const scripts = firstLoadScripts(html)
      expect(scripts.length).toBeGreaterThan(0)
      const jsBytes = scripts.reduce((sum, script) => sum + gzipSizeOf(script), 0)
      const reactChunk = scripts.find((script) =>
        readFileSync(join(DIST, script), 'utf8').includes('react-dom'),
      )
      const reactBytes = reactChunk ? gzipSizeOf(reactChunk) : 0
      console.log(
        `${path}: ${jsBytes} B of JavaScript (gzip), of which the chunk with React is ${reactBytes} B`,
      )
      expect(jsBytes).toBeLessThanOrEqual(budget.js)
      if (budget.react) expect(reactBytes).toBeGreaterThanOrEqual(REACT_MIN)
      else expect(reactChunk, 'a page without islands loads no React').toBeUndefined()
      expect(html).not.toMatch(/email-sdk/)

      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)]
        .map((match) => match[1]!)
        .join('')
      const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map(
        (m) => gzipSizeOf(m[1]!),
      )
      const cssBytes =
        gzipSync(styles, { level: 9 }).byteLength + stylesheets.reduce((a, b) => a + b, 0)
      console.log(`${path}: ${cssBytes} B of CSS (gzip)`)
      expect(cssBytes).toBeLessThanOrEqual(CSS_BUDGET)
    })
  }

  test("the inline CSS carries the design tokens' values, not var(): the browser restyles faster", () => {
    for (const { html } of Object.values(BUDGET)) {
      const css = [
        ...readFileSync(join(DIST, html), 'utf8').matchAll(/<style>([\s\S]*?)<\/style>/g),
      ]
        .map((match) => match[1]!)
        .join('')
      expect(css).toMatch(/#0b1f3a/i) // --navy-900, written in
      expect(css).not.toMatch(/var\(--|[{;]--[\w-]+:/)
    }
  })

  test('an own-server build carries no e-mail SDK; its sender is a chunk that no page preloads', () => {
    const scripts = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js'))
    expect(scripts.filter((file) => file.startsWith('email-sdk-'))).toEqual([])
    for (const script of scripts) {
      expect(readFileSync(join(DIST, 'assets', script), 'utf8'), script).not.toMatch(
        /emailjs|EmailJSResponseStatus/i,
      )
    }
    const senders = scripts.filter((file) => file.startsWith('send-to-own-server-'))
    expect(senders).toHaveLength(1)
    console.log(`the own-server sender: ${gzipSizeOf(`assets/${senders[0]!}`)} B (gzip)`)
    for (const { html } of Object.values(BUDGET)) {
      expect(readFileSync(join(DIST, html), 'utf8')).not.toMatch(/send-to-own-server/)
    }
  })

  test("the booking picker is a chunk of its own, asked for by the own-server sender, never by a page's first scripts", () => {
    const scripts = readdirSync(join(DIST, 'assets')).filter((file) => file.endsWith('.js'))
    const pickers = scripts.filter((file) => file.startsWith('booking-picker-'))
    expect(pickers).toHaveLength(1)
    console.log(`the booking picker: ${gzipSizeOf(`assets/${pickers[0]!}`)} B (gzip)`)
    const sender = scripts.find((file) => file.startsWith('send-to-own-server-'))!
    expect(readFileSync(join(DIST, 'assets', sender), 'utf8')).toContain(pickers[0])
    for (const { html } of Object.values(BUDGET)) {
      const page = readFileSync(join(DIST, html), 'utf8')
      expect(page).not.toMatch(/booking-picker/)
      for (const script of firstLoadScripts(page))
        expect(readFileSync(join(DIST, script), 'utf8'), script).not.toMatch(/booking-picker/)
    }
  })

  test(`the home page transfers at most ${HOME_FIRST_LOAD_BUDGET / KB} kB on first load, and no SDK`, async ({
    page,
  }) => {
    // Each size is read when its response has fully arrived; all are awaited before summing.
    const sizes: Promise<{ url: string; bytes: number }>[] = []
    page.on('response', (response) => {
      sizes.push(
        response.finished().then(async () => {
          const { responseBodySize, responseHeadersSize } = await response.request().sizes()
          return { url: response.url(), bytes: responseBodySize + responseHeadersSize }
        }),
      )
    })
    await page.goto('/', { waitUntil: 'networkidle' })
    await waitForHydration(page)
    const responses = await Promise.all(sizes)
    const total = responses.reduce((sum, response) => sum + response.bytes, 0)
    console.log(`/ first load: ${responses.length} requests, ${total} B transferred`)
    expect(total).toBeLessThanOrEqual(HOME_FIRST_LOAD_BUDGET)
    expect(
      responses.map((response) => response.url).filter((url) => url.includes('email-sdk')),
    ).toEqual([])
  })
})
