// Chromium (over the DevTools protocol) and Firefox (over WebDriver BiDi), both through
// puppeteer-core and the browsers Debian installs: nothing is downloaded.
import puppeteer, {
  type Browser,
  type LaunchOptions as PuppeteerLaunchOptions,
  type Page,
} from 'puppeteer-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'
import { waitUntil } from '../testing/wait-until.js'
import {
  ERROR_COLLECTOR,
  READ_COLLECTED_ERRORS,
  type Engine,
  type EngineDriver,
  type LaunchEngine,
  type LaunchOptions,
} from './driver'

/** What Firefox says when a script reads a property of a window of another origin. */
const CROSS_ORIGIN_ACCESS = /^uncaught: Error: Permission denied to access property /

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

const launchOptions: Record<'chromium' | 'firefox', PuppeteerLaunchOptions> = {
  chromium: { browser: 'chrome', executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
  firefox: {
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    // Scrollbars over the page, as on a phone and in the other two headless engines; classic
    // ones would take 12 px from the layout, so a 390 px window would lay the page out at 378.
    extraPrefsFirefox: { 'ui.useOverlayScrollbars': 1 },
  },
}

class PuppeteerDriver implements EngineDriver {
  /** Errors the protocol reported, which includes those thrown before the collector ran. */
  private readonly reported: string[] = []

  constructor(
    readonly engine: Engine,
    readonly origin: string,
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly javaScript: boolean,
  ) {
    page.on('pageerror', (error) => {
      this.reported.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`)
    })
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(new URL(path, this.origin).href, { waitUntil: 'load' })
  }

  async setViewport(width: number, height: number): Promise<void> {
    try {
      await this.page.setViewport({ width, height })
    } catch (error) {
      // puppeteer sends the viewport and a screen-orientation override together over BiDi;
      // Debian's Firefox ESR (140.12) does not know the second command and refuses it, which
      // rejects the call before the first has answered. The size is awaited below instead.
      if (!String(error).includes('unknown command emulation.setScreenOrientationOverride'))
        throw error
    }
    let actual = 0
    await waitUntil(async () => (actual = await this.page.evaluate(() => innerWidth)) === width, {
      what: `${this.engine}: the viewport is ${width} px wide`,
      timeoutMs: 10_000,
      intervalMs: 100,
      details: () => `it is ${actual} px wide`,
    })
  }

  async click(selector: string): Promise<void> {
    if (!this.javaScript) return this.clickWithoutScripts(selector)
    // A click lands where the element was measured; the page scrolls smoothly (to an invalid
    // field, to an anchor), so the element is brought into view and left to settle first.
    await this.page.$eval(selector, async (element) => {
      element.scrollIntoView({ block: 'center', behavior: 'instant' })
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
      let last = ''
      for (let frames = 0; frames < 60; frames++) {
        await frame()
        const { top, left } = element.getBoundingClientRect()
        const now = `${top},${left}`
        if (now === last) return
        last = now
      }
    })
    await this.page.click(selector)
  }

  /**
   * With the page's scripts off, puppeteer's own click closed Firefox's session (ESR 153.8);
   * a pointer click at the element's centre does not. Nothing on such a page scrolls smoothly.
   */
  private async clickWithoutScripts(selector: string): Promise<void> {
    const { x, y } = await this.page.$eval(selector, (element) => {
      element.scrollIntoView({ block: 'center', behavior: 'instant' })
      const box = element.getBoundingClientRect()
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
    })
    await this.page.mouse.click(x, y)
  }

  async clickToNavigate(selector: string): Promise<void> {
    await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), this.click(selector)])
  }

  async clickAt(x: number, y: number): Promise<void> {
    await this.page.mouse.click(x, y)
  }

  async type(selector: string, text: string): Promise<void> {
    await this.page.$eval(selector, (field) => {
      const input = field as HTMLInputElement
      input.focus()
      input.select()
    })
    await this.page.keyboard.press('Backspace')
    await this.page.keyboard.type(text)
  }

  async press(key: 'Escape' | 'Tab' | 'Enter'): Promise<void> {
    await this.page.keyboard.press(key)
  }

  async evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    return (await this.page.evaluate(fn as never, ...(args as unknown as never[]))) as Awaited<T>
  }

  async takeScriptErrors(): Promise<string[]> {
    const inPage = (await this.page.evaluate(`(() => { ${READ_COLLECTED_ERRORS} })()`)) as string[]
    // A thrown error shows up both as a protocol event and in the collector: keep it once.
    const reported = this.reported
      .splice(0)
      .filter((message) => !inPage.includes(message))
      // Firefox ESR 140.12 reports through the page the errors of a cross-origin frame in it
      // (the video's, which cannot load on this closed network) when that frame touches its
      // parent. The page's own code never touches another origin's window, and anything it
      // throws also reaches the collector above, so only this foreign copy is left out.
      .filter((message) => !CROSS_ORIGIN_ACCESS.test(message))
    return [...reported, ...inPage]
  }

  async screenshot(file: string): Promise<void> {
    await this.page.screenshot({ path: file as `${string}.png`, fullPage: true })
  }

  async close(): Promise<void> {
    await this.browser.close()
  }
}

const launchWithPuppeteer =
  (engine: 'chromium' | 'firefox'): LaunchEngine =>
  async (origin, { javaScript = true }: LaunchOptions = {}) => {
    const options = launchOptions[engine]
    const browser = await puppeteer.launch({
      ...options,
      // Firefox over BiDi has no command to turn a page's scripts off (ESR 153.8 answers
      // "unknown command emulation.setScriptingEnabled"): its preference does it for the browser.
      ...(!javaScript &&
        engine === 'firefox' && {
          extraPrefsFirefox: { ...options.extraPrefsFirefox, 'javascript.enabled': false },
        }),
      headless: true,
    })
    const page = (await browser.pages())[0] ?? (await browser.newPage())
    if (javaScript) await page.evaluateOnNewDocument(ERROR_COLLECTOR)
    else if (engine === 'chromium') await page.setJavaScriptEnabled(false)
    return new PuppeteerDriver(engine, origin, browser, page, javaScript)
  }

export const launchChromium = launchWithPuppeteer('chromium')
export const launchFirefox = launchWithPuppeteer('firefox')
