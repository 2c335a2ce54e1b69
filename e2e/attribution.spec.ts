import { demoForm, heroActions, videoDialog, header } from '../testing/content'
import type { Page } from '@playwright/test'
import {
  alertDialog,
  expect,
  gotoHome,
  queueFaults,
  sendDemoRequest,
  storedRequests,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures'

type DataLayerEvent = Record<string, unknown> & { event: string }

const dataLayer = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? []).filter((entry): entry is DataLayerEvent => 'event' in entry),
  )

const PERSONAL = /Ana|López|prueba\.mx|1234/

test.describe('campaign attribution', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test('keeps the first landing campaign for the whole visit and sends it with the request', async ({
    page,
  }) => {
    await gotoHome(page, '/?utm_source=whatsapp&utm_campaign=otono&utm_medium=mensaje')
    await page.goto('/tyc?utm_source=correo')
    await gotoHome(page, '/')
    const email = uniqueEmail('campana')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    const [stored] = await storedRequests(email)
    expect(stored!.params).toMatchObject({
      utm_source: 'whatsapp',
      utm_medium: 'mensaje',
      utm_campaign: 'otono',
      traffic_source: 'whatsapp / mensaje / otono',
      landing_page: '/',
    })
    expect(Date.parse(stored!.params.first_visit_at!)).not.toBeNaN()
    expect(stored!.params).not.toHaveProperty('utm_term')
    expect(stored!.params).not.toHaveProperty('gclid')
  })

  test("a direct visit says 'directo' and sends no empty campaign fields", async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('directo')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    const [stored] = await storedRequests(email)
    expect(stored!.params.traffic_source).toBe('directo')
    expect(Object.keys(stored!.params).filter((key) => key.startsWith('utm_'))).toEqual([])
  })

  test('hostile campaign values are stored as plain, bounded text', async ({ page }) => {
    const hostile = `<img src=x onerror=alert(1)>${'x'.repeat(400)}`
    await gotoHome(page, `/?utm_source=${encodeURIComponent(hostile)}&gclid=%20abc%20`)
    const email = uniqueEmail('hostil')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    const [stored] = await storedRequests(email)
    expect(stored!.params.utm_source).toHaveLength(200)
    expect(stored!.params.utm_source!.startsWith('<img src=x onerror=alert(1)>')).toBe(true)
    expect(stored!.params.gclid).toBe('abc')
    await expect(page.locator('img[src="x"]')).toHaveCount(0)
  })
})

test.describe('conversion events', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test('each event reaches dataLayer once, with its fields and no personal data', async ({
    page,
  }) => {
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({ status: 200, body: 'player' }),
    )
    await gotoHome(page, '/?utm_source=google&utm_medium=cpc')
    const domEvents: string[] = []
    await page.exposeFunction('recordDomEvent', (name: string) => domEvents.push(name))
    await page.evaluate(() => {
      for (const name of [
        'demo_form_start',
        'demo_request_submitted',
        'demo_request_failed',
        'video_open',
        'cta_click',
      ]) {
        window.addEventListener(name, () =>
          (window as unknown as { recordDomEvent: (n: string) => void }).recordDomEvent(name),
        )
      }
    })

    await page.getByRole('link', { name: heroActions.primaryCta.label }).click()
    await page.getByRole('button', { name: heroActions.videoCta }).click()
    await page.getByRole('dialog').getByRole('button', { name: videoDialog.close }).click()

    const email = uniqueEmail('eventos')
    await queueFaults(page, email, [{ status: 500, body: 'Servicio caído' }])
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.errorTitle)
    await alertDialog(page).getByRole('button', { name: demoForm.alert.close }).click()
    await submitButton(page).click()
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)

    const events = await dataLayer(page)
    expect(events).toEqual([
      { event: 'cta_click', cta: 'hero' },
      { event: 'video_open', placement: 'hero' },
      { event: 'demo_form_start' },
      { event: 'demo_request_failed', error: 'Servicio caído' },
      { event: 'demo_request_submitted', traffic_source: 'google / cpc' },
    ])
    expect(JSON.stringify(events)).not.toMatch(PERSONAL)
    expect(domEvents).toEqual(events.map((event) => event.event))
  })

  test('the header call to action and the video section player are reported', async ({ page }) => {
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({ status: 200, body: 'player' }),
    )
    await gotoHome(page)
    // The player first: the header's link scrolls the page smoothly, and a click in a frame
    // while the page still moves lands where the player was (Playwright waits for the link to
    // stand still in its frame, not for the frame to stand still in the page).
    await page
      .frameLocator('#video iframe')
      .getByRole('link', { name: /Reproducir/ })
      .click()
    const videoOpen = { event: 'video_open', placement: 'video_section' }
    await expect.poll(() => dataLayer(page)).toEqual([videoOpen])
    await page.locator('header').getByRole('link', { name: header.cta.label, exact: true }).click()
    await expect
      .poll(() => dataLayer(page))
      .toEqual([videoOpen, { event: 'cta_click', cta: 'header' }])
  })

  test('no request leaves for a third-party host when no tag manager is configured', async ({
    page,
  }) => {
    const thirdParty: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).hostname !== '127.0.0.1') thirdParty.push(request.url())
    })
    await gotoHome(page)
    await page.mouse.wheel(0, 6000)
    const email = uniqueEmail('terceros')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    // A fake clock runs past the tag manager's idle deadline (4 s) at once.
    await page.clock.install()
    await page.goto('/tyc')
    await page.waitForLoadState('load')
    await page.clock.runFor(5_000)
    await page.waitForLoadState('networkidle')
    expect(thirdParty).toEqual([])
  })
})
