// WebKit: Debian's WebKitGTK MiniBrowser behind WebKitWebDriver, a W3C WebDriver server,
// spoken to over plain HTTP. It needs a display, so it runs under xvfb-run.
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import {
  ERROR_COLLECTOR,
  READ_COLLECTED_ERRORS,
  type EngineDriver,
  type Key,
  type LaunchEngine,
} from './driver'

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? 'WebKitWebDriver'
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

// The W3C WebDriver codes of the keys the journeys press.
const KEY_CODES: Record<Key, string> = { Escape: '\uE00C', Tab: '\uE004', Enter: '\uE007' }
// The key W3C WebDriver names an element reference by.
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf'

type WebDriverReply = { value: unknown }

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

class WebDriverSession {
  constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  static async create(base: string, capabilities: object): Promise<WebDriverSession> {
    const value = (await request(base, 'POST', '/session', { capabilities })) as {
      sessionId: string
    }
    return new WebDriverSession(base, value.sessionId)
  }

  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<unknown> {
    return request(this.base, method, `/session/${this.id}${path}`, body)
  }

  /**
   * Finds an element and brings it into view. WebKitWebDriver scrolls to an element before a
   * click, but the site scrolls smoothly, and the driver checks the element while the scroll is
   * still moving: it would call a field below the fold "not interactable".
   */
  async element(selector: string): Promise<string> {
    const found = (await this.call('POST', '/element', {
      using: 'css selector',
      value: selector,
    })) as Record<string, string>
    await this.call('POST', '/execute/sync', {
      script: "arguments[0].scrollIntoView({ block: 'center', behavior: 'instant' })",
      args: [found],
    })
    return found[ELEMENT_KEY]!
  }
}

async function request(base: string, method: string, path: string, body?: object) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const reply = (await response.json()) as WebDriverReply
  if (!response.ok) {
    const { error, message } = reply.value as { error: string; message: string }
    throw new Error(`WebDriver ${method} ${path}: ${error}: ${message}`)
  }
  return reply.value
}

class WebKitDriver implements EngineDriver {
  readonly engine = 'webkit'
  /** Errors read from documents the session has since navigated away from. */
  private readonly earlier: string[] = []

  constructor(
    readonly origin: string,
    private readonly session: WebDriverSession,
    private readonly server: ChildProcess,
  ) {}

  async goto(path: string): Promise<void> {
    this.earlier.push(...(await this.readCollected()))
    await this.session.call('POST', '/url', { url: new URL(path, this.origin).href })
    // Classic WebDriver has no hook before a page's scripts run, so the collector starts at
    // the load event: it misses an error thrown while the page's first script runs, which the
    // journeys still notice as a page that does not work. Hydration comes after load.
    await this.session.call('POST', '/execute/sync', { script: ERROR_COLLECTOR, args: [] })
  }

  async setViewport(width: number, height: number): Promise<void> {
    // In full-screen mode MiniBrowser has no toolbar, so the window is the viewport.
    await this.session.call('POST', '/window/rect', { width, height })
  }

  async click(selector: string): Promise<void> {
    const element = await this.session.element(selector)
    await this.session.call('POST', `/element/${element}/click`, {})
  }

  async clickAt(x: number, y: number): Promise<void> {
    await this.session.call('POST', '/actions', {
      actions: [
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
      ],
    })
  }

  async type(selector: string, text: string): Promise<void> {
    const element = await this.session.element(selector)
    await this.session.call('POST', `/element/${element}/clear`, {})
    await this.session.call('POST', `/element/${element}/value`, { text })
  }

  async press(key: Key): Promise<void> {
    const value = KEY_CODES[key]
    await this.session.call('POST', '/actions', {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            { type: 'keyDown', value },
            { type: 'keyUp', value },
          ],
        },
      ],
    })
    await this.session.call('DELETE', '/actions')
  }

  async evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    // Execute Script awaits a returned promise, as page.evaluate does.
    const script = `return (${fn.toString()}).apply(null, arguments)`
    return (await this.session.call('POST', '/execute/sync', { script, args })) as Awaited<T>
  }

  private async readCollected(): Promise<string[]> {
    const script = READ_COLLECTED_ERRORS
    return (await this.session.call('POST', '/execute/sync', { script, args: [] })) as string[]
  }

  async takeScriptErrors(): Promise<string[]> {
    return [...this.earlier.splice(0), ...(await this.readCollected())]
  }

  async screenshot(file: string): Promise<void> {
    // WebDriver captures the viewport only: for the whole page, the window grows to the page's
    // height for the shot (nothing on the site is sized by the viewport's height but the
    // dialogs and the desktop table of contents), then goes back.
    const rect = (await this.session.call('GET', '/window/rect')) as {
      width: number
      height: number
    }
    const height = await this.evaluate(() => document.documentElement.scrollHeight)
    await this.setViewport(rect.width, height)
    // Painted at the new size: two frames, then a pause for the compositor under load.
    await this.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 500))),
        ),
    )
    const png = (await this.session.call('GET', '/screenshot')) as string
    await writeFile(file, Buffer.from(png, 'base64'))
    await this.setViewport(rect.width, rect.height)
  }

  async close(): Promise<void> {
    try {
      await this.session.call('DELETE', '')
    } finally {
      stopDriver(this.server)
    }
  }
}

function stopDriver(server: ChildProcess): void {
  // xvfb-run starts Xvfb and the driver in the group it leads: stop all of it.
  if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM')
}

async function waitUntilReady(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`${WEBKIT_DRIVER} exited (${server.exitCode})`)
    try {
      const status = (await request(base, 'GET', '/status')) as { ready: boolean }
      if (status.ready) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${WEBKIT_DRIVER} did not start within 30 s`)
}

export const launchWebKit: LaunchEngine = async (origin) => {
  const port = await freePort()
  const server = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1600x1200x24', WEBKIT_DRIVER, `--port=${port}`],
    { detached: true, stdio: 'ignore' },
  )
  const base = `http://127.0.0.1:${port}`
  try {
    await waitUntilReady(base, server)
    const session = await WebDriverSession.create(base, {
      alwaysMatch: {
        'webkitgtk:browserOptions': {
          binary: MINIBROWSER_PATH,
          // Full screen drops the toolbar, whose width would keep the window wider than a phone.
          args: ['--automation', '--full-screen'],
        },
      },
    })
    return new WebKitDriver(origin, session, server)
  } catch (error) {
    stopDriver(server)
    throw error
  }
}
