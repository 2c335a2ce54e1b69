import { demoForm } from '../testing/content'
import { test as base, expect, type Page, type Request, type Route } from '@playwright/test'
import { OUTBOX_DIR } from '../playwright.config'
import type { StoredRequest } from '../server/store/lead-store'
import { SEND_FORM_PATH, SEND_PATH } from '../src/contract/demo-request'
import { DOOR_PATH } from '../src/contract/demo-request-fields'
import { waitForHydration } from '../testing/hydration.mjs'
import { storedRequests as storedInDataDir } from '../testing/server/store'

export type { StoredRequest }

/**
 * What a test makes the sending endpoint do, once per request: answer an error, drop the
 * connection, or answer late (and then pass the request on, or answer the status given).
 */
export type Fault =
  | { status: number; body: string }
  | { drop: true }
  | { delayMs: number; status?: number; body?: string }

/**
 * Every test fails on a console error or an uncaught exception, which includes any request the
 * Content-Security-Policy refuses.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        // The browser's own report of a send, or a booking address's answer (404, 409, 503),
        // that a test made fail on purpose.
        const path = new URL(message.location().url, 'http://x').pathname
        const isFailedSend =
          (isSendPath(path) || path.startsWith('/reserva/')) &&
          message.text().startsWith('Failed to load resource')
        if (!isFailedSend) errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await use(errors)
      expect(errors, 'console errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

/** A unique e-mail per test, so parallel tests never read each other's requests. */
export const uniqueEmail = (label: string, domain = '@prueba.mx') =>
  `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now()}-${Math.floor(Math.random() * 1e6)}${domain}`

const faultQueues = new WeakMap<Page, Map<string, Fault[]>>()

/** Where a page sends a demo request: our own door, or the e-mail service's endpoints. */
const isSendPath = (path: string) =>
  path === DOOR_PATH || path === SEND_PATH || path === SEND_FORM_PATH

/**
 * The e-mail a demo request is from: in the door's JSON, the SDK's (its template params) or the
 * no-script form's multipart.
 */
function senderOf(request: Request): string | undefined {
  const body = request.postData() ?? ''
  if (request.headers()['content-type']?.startsWith('application/json') === true) {
    const sent = JSON.parse(body) as {
      user_email?: unknown
      template_params?: Record<string, unknown>
    }
    const email = sent.template_params?.user_email ?? sent.user_email
    return typeof email === 'string' ? email : undefined
  }
  return /name="user_email"\r\n\r\n([^\r]*)\r\n/.exec(body)?.[1]
}

async function applyFault(route: Route, fault: Fault): Promise<void> {
  if ('drop' in fault) return route.abort('connectionreset')
  if ('delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
  if (fault.status === undefined) return route.continue()
  return route.fulfill({ status: fault.status, contentType: 'text/plain', body: fault.body })
}

/**
 * Queues faults for one visitor's sends, in the page's own network layer (Playwright's
 * routing): each send from that e-mail takes the next fault; with none left, it reaches the
 * server. A fault answered after the page has gone is dropped silently.
 */
export async function queueFaults(page: Page, email: string, faults: Fault[]): Promise<void> {
  let queues = faultQueues.get(page)
  if (queues === undefined) {
    const byEmail = new Map<string, Fault[]>()
    queues = byEmail
    faultQueues.set(page, byEmail)
    await page.route(
      (url) => isSendPath(url.pathname),
      async (route) => {
        const sender = senderOf(route.request())
        const fault = sender === undefined ? undefined : byEmail.get(sender)?.shift()
        if (fault === undefined) return route.fallback()
        return applyFault(route, fault).catch(() => undefined)
      },
    )
  }
  queues.set(email, [...(queues.get(email) ?? []), ...faults])
}

/** Drops the faults still queued for an address: its next send reaches the server. */
export function clearFaults(page: Page, email: string): void {
  faultQueues.get(page)?.delete(email)
}

/** The requests the server stored for one address, read from its store in OUTBOX_DIR. */
export async function storedRequests(email: string): Promise<StoredRequest[]> {
  const stored = await storedInDataDir({ dataDir: OUTBOX_DIR })
  return stored.filter((request) => request.params.user_email === email)
}

export const demoRequest = (email: string) => ({
  user_name: 'Ana López Pérez',
  user_email: email,
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Altamar',
  message: 'Tenemos 14 estaciones en el Bajío.',
})

export async function fillDemoForm(page: Page, values: Record<string, string>): Promise<void> {
  const form = page.locator('#solicitar-demo-gratis form').first()
  for (const [name, value] of Object.entries(values)) {
    await form.locator(`[name="${name}"]`).fill(value)
  }
}

export const submitButton = (page: Page) =>
  page.getByRole('button', { name: new RegExp(`${demoForm.submit}|${demoForm.sending}`) })

export const alertDialog = (page: Page) => page.getByRole('alertdialog')

/** What a visitor does to ask for a demo: fills the form with a whole request and sends it. */
export async function sendDemoRequest(
  page: Page,
  email: string,
  changes: Record<string, string> = {},
): Promise<void> {
  await fillDemoForm(page, { ...demoRequest(email), ...changes })
  await submitButton(page).click()
}

const heldClocks = new WeakSet<Page>()

/** Fakes the page's timers and holds them still, so a test decides when time passes. */
export async function holdClock(page: Page): Promise<void> {
  const now = Date.now()
  await page.clock.install({ time: now })
  // Far enough ahead that a busy machine never reaches it between the two calls ("cannot
  // fast-forward to the past"); no page is loaded yet, so no timer fires on the way.
  await page.clock.pauseAt(now + 60_000)
  // A module script's load event comes once it has run: counted here, since the page's own
  // scripts are only added once its headline has painted (islands/load-after-first-paint.js).
  await page.addInitScript(() => {
    document.addEventListener(
      'load',
      (event) => {
        if ((event.target as Element).localName === 'script')
          Object.assign(window, { scriptsRun: ((window as ScriptsRun).scriptsRun ?? 0) + 1 })
      },
      true,
    )
  })
  heldClocks.add(page)
}

type ScriptsRun = Window & { scriptsRun?: number }

export { waitForHydration }

/** Opens a page and waits until its islands are hydrated, so clicks reach React. */
export async function gotoHome(page: Page, path = '/'): Promise<void> {
  await page.goto(path)
  if (heldClocks.has(page)) {
    // The page's scripts are added once the browser reports its first contentful paint, which
    // no clock holds; hydration, and the carousel's first turn, start a frame after they have
    // run: the held clock lets that frame pass only then, so a test's time counts from there.
    await expect
      .poll(() => page.evaluate(() => (window as ScriptsRun).scriptsRun ?? 0))
      .toBeGreaterThan(0)
    await page.clock.runFor(100)
  }
  await waitForHydration(page)
}
