import { demoForm } from '../src/content/demo-form'
import { test as base, expect, type Page } from '@playwright/test'
import { waitForHydration } from '../scripts/hydration.mjs'

export type StoredRequest = {
  id: string
  receivedAt: string
  serviceId: string
  templateId: string
  params: Record<string, string>
}

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
        // The browser's own report of a send that a test made fail on purpose.
        const isFailedSend =
          message.location().url.includes('/api/v1.0/email/') &&
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
export const uniqueEmail = (label: string) =>
  `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@prueba.mx`

export async function clearFaults(page: Page, email: string): Promise<void> {
  const response = await page.request.delete(`/__test__/faults?email=${encodeURIComponent(email)}`)
  expect(response.ok()).toBe(true)
}

export async function storedRequests(page: Page, email: string): Promise<StoredRequest[]> {
  const response = await page.request.get(`/__test__/outbox?email=${encodeURIComponent(email)}`)
  expect(response.ok()).toBe(true)
  return (await response.json()) as StoredRequest[]
}

export async function queueFaults(page: Page, email: string, faults: Fault[]): Promise<void> {
  const response = await page.request.post('/__test__/faults', { data: { email, faults } })
  expect(response.ok()).toBe(true)
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

const heldClocks = new WeakSet<Page>()

/** Fakes the page's timers and holds them still, so a test decides when time passes. */
export async function holdClock(page: Page): Promise<void> {
  const now = Date.now()
  await page.clock.install({ time: now })
  // Far enough ahead that a busy machine never reaches it between the two calls ("cannot
  // fast-forward to the past"); no page is loaded yet, so no timer fires on the way.
  await page.clock.pauseAt(now + 60_000)
  heldClocks.add(page)
}

export { waitForHydration }

/** Opens a page and waits until its islands are hydrated, so clicks reach React. */
export async function gotoHome(page: Page, path = '/'): Promise<void> {
  await page.goto(path)
  // Hydration starts a frame after the first paint; a held clock has to let that frame pass.
  if (heldClocks.has(page)) await page.clock.runFor(100)
  await waitForHydration(page)
}
