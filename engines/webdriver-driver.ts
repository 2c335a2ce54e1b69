// WebKit: Debian's WebKitGTK MiniBrowser behind WebKitWebDriver, a W3C WebDriver server, driven
// through WebdriverIO's protocol client (`webdriver`). It needs a display, so it runs under
// xvfb-run; the client connects to the server started here and never starts or fetches a driver.
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import WebDriver, { type Client } from 'webdriver'
import { freePort } from '../testing/free-port.mjs'
import { waitUntil } from '../testing/wait-until.js'
import {
  ERROR_COLLECTOR,
  READ_COLLECTED_ERRORS,
  type EngineDriver,
  type Key,
  type LaunchEngine,
  type LaunchOptions,
} from './driver'

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? 'WebKitWebDriver'
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

// The W3C WebDriver codes of the keys the journeys press.
const KEY_CODES: Record<Key, string> = { Escape: '\uE00C', Tab: '\uE004', Enter: '\uE007' }
// The key W3C WebDriver names an element reference by.
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf'

type ScriptArguments = Parameters<Client['executeScript']>[1]

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- where WebdriverIO declares them
  namespace WebdriverIO {
    /** WebKitWebDriver's own capability: which browser to start, with which arguments. */
    interface Capabilities {
      'webkitgtk:browserOptions'?: { binary: string; args: string[] }
    }
  }
}

class WebKitDriver implements EngineDriver {
  readonly engine = 'webkit'
  /** Errors read from documents the session has since navigated away from. */
  private readonly earlier: string[] = []

  constructor(
    readonly origin: string,
    private readonly client: Client,
    private readonly server: ChildProcess,
    private readonly javaScript: boolean,
  ) {}

  /**
   * Finds an element and brings it into view. WebKitWebDriver scrolls to an element before a
   * click, but the site scrolls smoothly, and the driver checks the element while the scroll is
   * still moving: it would call a field below the fold "not interactable".
   */
  private async element(selector: string): Promise<string> {
    const found = await this.client.findElement('css selector', selector)
    await this.client.executeScript(
      "arguments[0].scrollIntoView({ block: 'center', behavior: 'instant' })",
      [found],
    )
    return found[ELEMENT_KEY]
  }

  async goto(path: string): Promise<void> {
    this.earlier.push(...(await this.readCollected()))
    await this.client.navigateTo(new URL(path, this.origin).href)
    // Classic WebDriver has no hook before a page's scripts run, so the collector starts at
    // the load event: it misses an error thrown while the page's first script runs, which the
    // journeys still notice as a page that does not work. Hydration comes after load.
    if (this.javaScript) await this.client.executeScript(ERROR_COLLECTOR, [])
  }

  async setViewport(width: number, height: number): Promise<void> {
    // In full-screen mode MiniBrowser has no toolbar, so the window is the viewport.
    await this.client.setWindowRect(null, null, width, height)
  }

  async click(selector: string): Promise<void> {
    await this.client.elementClick(await this.element(selector))
  }

  async clickToNavigate(selector: string): Promise<void> {
    // The page that was, marked; the driver's own scripts run even when the page's do not.
    await this.client.executeScript('window.__leftBehind = true', [])
    await this.click(selector)
    await waitUntil(
      async () => {
        const loaded = await this.client
          .executeScript(
            "return window.__leftBehind !== true && document.readyState === 'complete'",
            [],
          )
          // Asked while the next page replaces this one.
          .catch(() => false)
        return loaded === true
      },
      { what: 'the next page has loaded', timeoutMs: 10_000, intervalMs: 100 },
    )
  }

  async clickAt(x: number, y: number): Promise<void> {
    await this.client.performActions([
      {
        type: 'pointer',
        id: 'mouse',
        parameters: { pointerType: 'mouse' },
        actions: [
          { type: 'pointerMove', origin: 'viewport', x: Math.round(x), y: Math.round(y) },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ])
  }

  async type(selector: string, text: string): Promise<void> {
    const element = await this.element(selector)
    await this.client.elementClear(element)
    await this.client.elementSendKeys(element, text)
  }

  async press(key: Key): Promise<void> {
    const value = KEY_CODES[key]
    await this.client.performActions([
      {
        type: 'key',
        id: 'keyboard',
        actions: [
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ],
      },
    ])
    await this.client.releaseActions()
  }

  async evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    // Execute Script awaits a returned promise, as page.evaluate does.
    const script = `return (${fn.toString()}).apply(null, arguments)`
    return (await this.client.executeScript(script, args as ScriptArguments)) as Awaited<T>
  }

  private async readCollected(): Promise<string[]> {
    return (await this.client.executeScript(READ_COLLECTED_ERRORS, [])) as string[]
  }

  async takeScriptErrors(): Promise<string[]> {
    return [...this.earlier.splice(0), ...(await this.readCollected())]
  }

  async screenshot(file: string): Promise<void> {
    // WebDriver captures the viewport only: for the whole page, the window grows to the page's
    // height for the shot (nothing on the site is sized by the viewport's height but the
    // dialogs and the desktop table of contents), then goes back.
    const { width, height } = await this.client.getWindowRect()
    const pageHeight = await this.evaluate(() => document.documentElement.scrollHeight)
    await this.setViewport(width, pageHeight)
    // Painted at the new size: two frames, then a pause for the compositor under load.
    await this.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 500))),
        ),
    )
    await writeFile(file, Buffer.from(await this.client.takeScreenshot(), 'base64'))
    await this.setViewport(width, height)
  }

  async close(): Promise<void> {
    try {
      await this.client.deleteSession()
    } finally {
      stopDriver(this.server)
    }
  }
}

function stopDriver(server: ChildProcess): void {
  // xvfb-run starts Xvfb and the driver in the group it leads: stop all of it.
  if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM')
}

/** WebKitWebDriver answers its status endpoint once it accepts a session. */
async function waitUntilReady(base: string, server: ChildProcess): Promise<void> {
  await waitUntil(
    async () => {
      const status = await fetch(`${base}/status`).catch(() => null)
      return (
        status?.ok === true && ((await status.json()) as { value: { ready: boolean } }).value.ready
      )
    },
    {
      what: `${WEBKIT_DRIVER} accepts a session`,
      timeoutMs: 30_000,
      intervalMs: 100,
      giveUpIf: () => (server.exitCode === null ? undefined : `it exited (${server.exitCode})`),
    },
  )
}

export const launchWebKit: LaunchEngine = async (
  origin,
  { javaScript = true }: LaunchOptions = {},
) => {
  const port = await freePort()
  const server = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1600x1200x24', WEBKIT_DRIVER, `--port=${port}`],
    { detached: true, stdio: 'ignore' },
  )
  try {
    await waitUntilReady(`http://127.0.0.1:${port}`, server)
    const client = await WebDriver.newSession({
      protocol: 'http',
      hostname: '127.0.0.1',
      port,
      path: '/',
      logLevel: 'warn',
      // A command is sent once: a retried click would click twice.
      connectionRetryCount: 0,
      capabilities: {
        'webkitgtk:browserOptions': {
          binary: MINIBROWSER_PATH,
          // Full screen drops the toolbar, whose width would keep the window wider than a phone;
          // scripts go off by a WebKitSettings property, as MiniBrowser takes them
          // (--help-websettings).
          args: [
            '--automation',
            '--full-screen',
            ...(javaScript ? [] : ['--enable-javascript=false']),
          ],
        },
      },
    })
    return new WebKitDriver(origin, client, server, javaScript)
  } catch (error) {
    stopDriver(server)
    throw error
  }
}
