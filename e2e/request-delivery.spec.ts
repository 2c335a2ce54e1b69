// A demo request must reach sales on a slow connection, without JavaScript and when the
// sending service fails: each path a visitor can take ends in a stored request or in a
// one-tap way to send it, never in silence.
import type { Page, Route } from '@playwright/test'
import { FULL_DISK_DOMAIN } from '../testing/full-disk.mjs'
import { HYDRATED_SELECTOR } from '../testing/hydration.mjs'
import { demoForm, demoSection, fallbackMessage, contact } from '../testing/content'
import { MAX_FALLBACK_URL_LENGTH } from '../src/rules/fallback-url-length'
import {
  alertDialog,
  demoRequest,
  expect,
  fillDemoForm,
  gotoHome,
  holdClock,
  queueFaults,
  sendDemoRequest,
  storedRequests,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures'

const { alert, fallback } = demoForm
const { posted } = demoSection

/**
 * Holds every script response until the test releases them: a slow mobile connection. The
 * page's clock is held too, so however slow this machine is, the held time is what the test
 * says (the page posts the form natively if its scripts take too long).
 */
async function holdScripts(page: Page): Promise<() => Promise<void>> {
  await holdClock(page)
  const held: Route[] = []
  let released = false
  await page.route('**/*.js', (route) => (released ? route.continue() : void held.push(route)))
  return async () => {
    released = true
    for (const route of held.splice(0)) void route.continue()
    // Hydration waits for a frame and a timer: let the held clock give them.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(100)
          return page.locator(HYDRATED_SELECTOR).count()
        },
        // React is most of the page's bytes: on a busy machine it takes a while to arrive.
        { timeout: 20_000 },
      )
      .toBe(1)
    // The held submit leaves once the frame after hydration has painted (decision 029).
    await page.clock.runFor(100)
  }
}

/**
 * Opens the home page as soon as its HTML is there, its scripts held back (see holdScripts):
 * what releases them.
 */
async function openBeforeScripts(page: Page): Promise<() => Promise<void>> {
  const release = await holdScripts(page)
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.locator('[name="user_name"]')).toBeVisible()
  return release
}

test.describe('before the scripts arrive', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test('what the visitor typed survives hydration and a saved draft', async ({ page }) => {
    // An older draft in the browser: it may fill the fields left empty, never the typed ones.
    await page.addInitScript(() =>
      localStorage.setItem(
        'gaspre:demo-request-draft',
        JSON.stringify({
          user_name: 'Borrador Antiguo',
          message: 'Texto del borrador',
          savedAt: Date.now(),
        }),
      ),
    )
    const release = await openBeforeScripts(page)
    const values = demoRequest(uniqueEmail('tecleado'))
    await fillDemoForm(page, { ...values, message: '' })
    await release()
    for (const name of ['user_name', 'user_email', 'user_phone', 'user_group'] as const)
      await expect(page.locator(`[name="${name}"]`)).toHaveValue(values[name])
    await expect(page.locator('[name="message"]')).toHaveValue('Texto del borrador')
  })

  test('a submit is shown as on its way at once and sent exactly once when they come', async ({
    page,
  }) => {
    const release = await openBeforeScripts(page)
    const email = uniqueEmail('envio-temprano')
    const values = demoRequest(email)
    await fillDemoForm(page, values)
    await page.getByRole('button', { name: demoForm.submit }).click()
    const button = page.locator('#solicitar-demo-gratis button[type="submit"]')
    await expect(button).toHaveAttribute('aria-disabled', 'true')
    await expect(button).toHaveAccessibleName(demoForm.sending)
    // Submitting again while held (Enter in a field) changes nothing.
    await page.locator('[name="user_group"]').press('Enter')
    expect(await storedRequests(email)).toHaveLength(0)
    expect(page.url()).not.toContain('#')

    await release()
    await expect(alertDialog(page).getByRole('heading')).toHaveText(alert.successTitle)
    const stored = await storedRequests(email)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.params).toMatchObject(values)
    expect(stored[0]!.params.contact_number).toMatch(/^\d{1,5}$/)
  })

  test('a held submit that fails ends in the error alert with its alternatives', async ({
    page,
  }) => {
    const email = uniqueEmail('temprano-falla')
    await queueFaults(page, email, [{ status: 503, body: 'Service Unavailable' }])
    const release = await openBeforeScripts(page)
    await sendDemoRequest(page, email)
    await release()
    const dialog = alertDialog(page)
    await expect(dialog.getByRole('heading')).toHaveText(alert.errorTitle)
    await expect(dialog).toContainText(`${alert.errorPrefix}Service Unavailable`)
    await expect(dialog.getByRole('link', { name: fallback.whatsapp })).toBeVisible()
  })

  test('a held submit the page cannot validate shows the field messages, not a send', async ({
    page,
  }) => {
    const release = await openBeforeScripts(page)
    const email = uniqueEmail('temprano-invalido')
    // The browser accepts this phone (type="tel" has no format); our rules do not.
    await sendDemoRequest(page, email, { user_phone: '12' })
    await release()
    await expect(page.getByText(demoForm.errors.phone)).toBeVisible()
    const button = page.locator('#solicitar-demo-gratis button[type="submit"]')
    await expect(button).not.toHaveAttribute('aria-disabled')
    await expect(button).toHaveAccessibleName(demoForm.submit)
    expect(await storedRequests(email)).toHaveLength(0)
  })

  test('when the scripts never come, the held request is posted by the browser', async ({
    page,
    consoleErrors,
  }) => {
    await holdClock(page)
    await page.route('**/*.js', (route) => route.abort())
    await page.goto('/', { waitUntil: 'commit' })
    await expect(page.locator('[name="user_name"]')).toBeVisible()
    const email = uniqueEmail('sin-scripts-nunca')
    await sendDemoRequest(page, email)
    await expect(page.locator('#solicitar-demo-gratis button[type="submit"]')).toHaveAttribute(
      'aria-disabled',
      'true',
    )
    await page.unroute('**/*.js')
    await page.clock.runFor(12_000)
    await page.waitForURL(`**/#${posted.sentId}`)
    // The scripts this test blocked on purpose are the only errors.
    expect(consoleErrors.every((text) => text.includes('net::ERR_FAILED'))).toBe(true)
    consoleErrors.length = 0
    await expect(page.locator(`#${posted.sentId}`)).toBeVisible()
    expect(await storedRequests(email)).toHaveLength(1)
  })
})

test.describe('without JavaScript', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test.use({ javaScriptEnabled: false })

  test('the form section offers WhatsApp and e-mail as well', async ({ page }) => {
    await page.goto('/')
    const section = page.locator('#solicitar-demo-gratis')
    await expect(section.getByText(demoSection.withoutScripts)).toBeVisible()
    await expect(section.getByRole('link', { name: fallback.whatsapp }).first()).toHaveAttribute(
      'href',
      new RegExp(`^https://wa\\.me/${contact.whatsappNumber}\\?text=`),
    )
    await expect(section.getByRole('link', { name: fallback.email }).first()).toHaveAttribute(
      'href',
      `mailto:${contact.email}`,
    )
    await expect(page.locator(`#${posted.sentId}`)).toBeHidden()
  })

  test('the form posts itself, is stored once, and the home page says it was sent', async ({
    page,
  }) => {
    await page.goto('/')
    const email = uniqueEmail('sin-javascript')
    const values = demoRequest(email)
    await fillDemoForm(page, values)
    await page.getByRole('button', { name: demoForm.submit }).click()
    await page.waitForURL(`**/#${posted.sentId}`)
    expect(new URL(page.url()).pathname).toBe('/')
    const notice = page.locator(`#${posted.sentId}`)
    await expect(notice).toBeVisible()
    await expect(notice).toContainText(alert.successTitle)
    await expect(notice).toContainText(alert.successText)
    const stored = await storedRequests(email)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.params).toMatchObject(values)
    expect(stored[0]!.params.contact_number).toMatch(/^\d{1,5}$/)
    expect(stored[0]!.params).not.toHaveProperty('website')
  })

  test('a post the server cannot store ends on the page that offers the alternatives', async ({
    page,
  }) => {
    await page.goto('/')
    // The server's own answer to a full disk (testing/full-disk.mjs).
    const email = uniqueEmail('sin-javascript-falla', FULL_DISK_DOMAIN)
    await sendDemoRequest(page, email)
    await page.waitForURL(`**/#${posted.failedId}`)
    const notice = page.locator(`#${posted.failedId}`)
    await expect(notice).toBeVisible()
    await expect(notice).toContainText(posted.failedText)
    await expect(notice.getByRole('link', { name: fallback.whatsapp })).toBeVisible()
    expect(await storedRequests(email)).toHaveLength(0)
  })
})

test.describe('when the sending service fails', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  const failingSend = async (page: Page, message: string) => {
    await gotoHome(page)
    const email = uniqueEmail('proveedor-caido')
    await queueFaults(page, email, [{ status: 429, body: 'Too Many Requests' }])
    const values = { ...demoRequest(email), message }
    await fillDemoForm(page, values)
    const contactNumber = await page.locator('[name="contact_number"]').inputValue()
    await submitButton(page).click()
    const dialog = alertDialog(page)
    await expect(dialog).toContainText(`${alert.errorPrefix}Too Many Requests`)
    return { dialog, values, contactNumber }
  }

  test('the error alert offers WhatsApp and e-mail with the request written out', async ({
    page,
  }) => {
    const { dialog, values, contactNumber } = await failingSend(page, 'Tenemos 14 estaciones.')
    const whatsapp = new URL(
      (await dialog.getByRole('link', { name: fallback.whatsapp }).getAttribute('href'))!,
    )
    expect(whatsapp.origin + whatsapp.pathname).toBe(`https://wa.me/${contact.whatsappNumber}`)
    const mail = (await dialog.getByRole('link', { name: fallback.email }).getAttribute('href'))!
    expect(mail.startsWith(`mailto:${contact.email}?`)).toBe(true)
    const mailQuery = new URLSearchParams(mail.slice(mail.indexOf('?') + 1))
    expect(mailQuery.get('subject')).toBe(fallbackMessage.subject)
    for (const text of [whatsapp.searchParams.get('text')!, mailQuery.get('body')!]) {
      for (const value of Object.values(values)) expect(text).toContain(value)
      expect(text).toContain(`${fallbackMessage.labels.contact_number}: ${contactNumber}`)
    }
  })

  test('a long request is shortened so phones still open the links', async ({ page }) => {
    const long = 'Necesitamos comparar precios de diésel en ñandú y más estaciones. '.repeat(30)
    const { dialog } = await failingSend(page, long.slice(0, 2000))
    for (const name of [fallback.whatsapp, fallback.email]) {
      const href = (await dialog.getByRole('link', { name }).getAttribute('href'))!
      expect(href.length).toBeLessThanOrEqual(MAX_FALLBACK_URL_LENGTH)
      expect(decodeURIComponent(href)).toContain('…')
    }
  })

  test('choosing an alternative is counted, without personal data', async ({ page }) => {
    const { dialog, values } = await failingSend(page, 'Zona norte.')
    // The links would leave the page (WhatsApp, the mail app): only their click is wanted here.
    await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault()))
    await dialog.getByRole('link', { name: fallback.whatsapp }).click()
    await dialog.getByRole('link', { name: fallback.email }).click()
    const events = await page.evaluate(() =>
      (window.dataLayer ?? []).filter(
        (entry) => (entry as { event?: string }).event === 'demo_request_fallback',
      ),
    )
    expect(events).toEqual([
      { event: 'demo_request_fallback', channel: 'whatsapp' },
      { event: 'demo_request_fallback', channel: 'email' },
    ])
    const everything = JSON.stringify(await page.evaluate(() => window.dataLayer))
    for (const value of [values.user_name, values.user_email, values.user_phone])
      expect(everything).not.toContain(value)
  })
})
