// The one interface the visitor journeys use to drive a browser. Each engine has a small
// adapter behind it (puppeteer-driver.ts for Chromium and Firefox, webdriver-driver.ts for
// WebKit), so the journeys are written once.
import { HYDRATED_SELECTOR } from '../testing/hydration.mjs'
import { waitUntil } from '../testing/wait-until.js'

export type Engine = 'chromium' | 'firefox' | 'webkit'

export type Key = 'Escape' | 'Tab' | 'Enter'

export interface EngineDriver {
  readonly engine: Engine
  /** The site's origin, e.g. http://127.0.0.1:41234. */
  readonly origin: string
  /** Opens a path of the site and waits for its load event. */
  goto(path: string): Promise<void>
  /** The window's inner size (the layout viewport). */
  setViewport(width: number, height: number): Promise<void>
  /** A real pointer click at the centre of the first element matching `selector`, scrolled into view. */
  click(selector: string): Promise<void>
  /**
   * A click that loads another page (a form's plain post, its redirect): resolves once the new
   * page has loaded.
   */
  clickToNavigate(selector: string): Promise<void>
  /** A real pointer click at a point of the viewport. */
  clickAt(x: number, y: number): Promise<void>
  /** Empties a field and types into it key by key. */
  type(selector: string, text: string): Promise<void>
  press(key: Key): Promise<void>
  /** Runs a self-contained function in the page (it cannot use anything from this module). */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>>
  /** Uncaught errors, rejected promises, console.error calls and CSP refusals since the last call. */
  takeScriptErrors(): Promise<string[]>
  /** A PNG of the whole page. */
  screenshot(file: string): Promise<void>
  close(): Promise<void>
}

export interface LaunchOptions {
  /** false: the browser runs no script of any page, as a visitor's with JavaScript off. */
  javaScript?: boolean
}

export type LaunchEngine = (origin: string, options?: LaunchOptions) => Promise<EngineDriver>

/**
 * Installed in every page: it records what a visitor's browser would report as a script error.
 * A string, so both protocols can inject it as is.
 */
export const ERROR_COLLECTOR = `(() => {
  if (window.__engineErrors) return
  const errors = (window.__engineErrors = [])
  window.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) errors.push('uncaught: ' + event.message)
  })
  window.addEventListener('unhandledrejection', (event) => {
    errors.push('unhandled rejection: ' + String(event.reason && (event.reason.message || event.reason)))
  })
  document.addEventListener('securitypolicyviolation', (event) => {
    errors.push('CSP refused ' + event.violatedDirective + ': ' + event.blockedURI)
  })
  const consoleError = console.error.bind(console)
  console.error = (...args) => {
    errors.push('console.error: ' + args.map(String).join(' '))
    consoleError(...args)
  }
})()`

/** Reads and empties the page's collected errors. */
export const READ_COLLECTED_ERRORS = `return (() => {
  const errors = window.__engineErrors || []
  window.__engineErrors = errors
  return errors.splice(0, errors.length)
})()`

// A ceiling, not a timing: at the end of npm test the journeys share two cores with the browser
// suites, and WebKit under a virtual display once took over 10 s to show an alert there.
const WAIT_TIMEOUT_MS = 20_000
const WAIT_INTERVAL_MS = 100

/**
 * Polls a condition in the page until it holds; engines differ in when a frame, a timer or a
 * smooth scroll completes, so journeys never assume one.
 */
export async function waitFor<A extends unknown[]>(
  driver: EngineDriver,
  description: string,
  condition: (...args: A) => boolean,
  ...args: A
): Promise<void> {
  await waitUntil(async () => await driver.evaluate(condition, ...args), {
    what: `${driver.engine}: ${description}`,
    timeoutMs: WAIT_TIMEOUT_MS,
    intervalMs: WAIT_INTERVAL_MS,
  })
}

/** Waits until the page has hydrated (testing/hydration.mjs): only then do clicks reach React. */
export const waitForHydration = (driver: EngineDriver): Promise<void> =>
  waitFor(
    driver,
    'the page has hydrated',
    (selector) => document.querySelector(selector) !== null,
    HYDRATED_SELECTOR,
  )
