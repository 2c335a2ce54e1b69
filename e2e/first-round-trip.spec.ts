import { get } from 'node:http'
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

/**
 * What a new connection carries in its first round trip: ten packets of 1,460 bytes (TCP's
 * initial window). The whole first screen must be in them, as each compression serves it, so
 * the page paints its first screen without waiting for a second round trip. Bytes, not time.
 */
const FIRST_ROUND_TRIP_BYTES = 14_600

/** `/` as the server sends it for one Accept-Encoding: the raw, still compressed bytes. */
function compressedHome(encoding: 'br' | 'gzip'): Promise<{ body: Buffer; encoding?: string }> {
  return new Promise((done, fail) => {
    const request = get(
      new URL('/', process.env.E2E_ORIGIN),
      { headers: { 'accept-encoding': encoding } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          done({ body: Buffer.concat(chunks), encoding: response.headers['content-encoding'] }),
        )
        response.on('error', fail)
      },
    )
    request.on('error', fail)
  })
}

/** What a truncated stream decodes to, as a browser decodes what has arrived so far. */
const decodePrefix = (encoding: 'br' | 'gzip', bytes: Buffer) =>
  (encoding === 'br'
    ? brotliDecompressSync(bytes, { finishFlush: constants.BROTLI_OPERATION_FLUSH })
    : gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH })
  ).toString('utf8')

/** Every text and named picture a page shows on its first screen, in document order. */
function firstScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen: string[] = []
    const onScreen = (element: Element) => {
      const box = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      return (
        box.width > 0 &&
        box.height > 0 &&
        box.top < innerHeight &&
        box.bottom > 0 &&
        style.visibility !== 'hidden' &&
        style.opacity !== '0'
      )
    }
    for (const element of document.body.querySelectorAll('*')) {
      if (!onScreen(element)) continue
      const name = element.getAttribute('aria-label') ?? element.getAttribute('alt')
      if (name && (element.localName === 'img' || element.getAttribute('role') === 'img'))
        seen.push(`picture: ${name}`)
      for (const node of element.childNodes)
        if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim())
          seen.push(`${element.localName}: ${node.textContent!.trim()}`)
    }
    return seen
  })
}

test.describe('the first round trip', () => {
  test('has no picture in it: each is a file of its own, requested once the page is shown', async ({
    request,
  }) => {
    const html = await (await request.get('/')).text()
    const sources = [...html.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g)].map((match) => match[1]!)
    // The carousel's slides and the clients' logos.
    expect(sources.length).toBeGreaterThanOrEqual(16)
    for (const source of sources) {
      expect(source).toMatch(/^\/assets\/[\w-]+\.(svg|png|webp)$/)
      const picture = await request.get(source)
      expect(picture.status(), source).toBe(200)
      expect(picture.headers()['content-type'], source).toMatch(/^image\//)
    }
  })

  // What the HTML alone paints: no script adds or changes anything.
  test.use({ javaScriptEnabled: false })

  for (const encoding of ['br', 'gzip'] as const) {
    test(`the first ${FIRST_ROUND_TRIP_BYTES} bytes of / under ${encoding} hold the whole first screen`, async ({
      page,
    }) => {
      const { body, encoding: served } = await compressedHome(encoding)
      expect(served).toBe(encoding)
      // Often the whole page (decision 032); if not, what the browser has decoded by then.
      const prefix = decodePrefix(encoding, body.subarray(0, FIRST_ROUND_TRIP_BYTES))
      // The styles are whole: the first screen paints as it will look.
      expect(prefix).toContain('</style>')

      await page.goto('/')
      const whole = await firstScreen(page)
      expect(whole.length).toBeGreaterThan(5)
      expect(whole.some((text) => text.startsWith('h1: '))).toBe(true)

      // The same address, answered with only what the first round trip carries.
      await page.route('/', (route) =>
        route.fulfill({ contentType: 'text/html; charset=utf-8', body: prefix }),
      )
      await page.goto('/')
      const fromPrefix = await firstScreen(page)
      for (const shown of whole) expect(fromPrefix).toContain(shown)
    })
  }
})
