// The visitor's whole journey to a booked demo against the real booking service (issue 44): a
// server of its own whose one rep publishes a calendar at a secret address, served here over
// HTTP as Google Calendar or Outlook serve one (the engines' journeys start the same one). With JavaScript, the free times follow
// '¡Éxito!' and one tap books; without it, the form's post lands on the booking page, whose
// radio buttons and plain POST book the same way.
import { BOOKING_REP, startBookingSite, type BookingSite } from '../engines/booking-site'
import { booking, bookingPage } from '../testing/content'
import { onOneLayout } from './own-server'
import { alertDialog, expect, gotoHome, sendDemoRequest, test, uniqueEmail } from './fixtures'

test.describe('a demo booked from the rep’s calendar', () => {
  onOneLayout('one layout is enough for the journey', 90_000)

  let site: BookingSite

  test.beforeAll(async () => {
    site = await startBookingSite()
  })

  test.afterAll(async () => {
    // Never started where the project skips the journey.
    await site?.stop()
  })

  test('with JavaScript: the free times follow the success, and one tap books the demo', async ({
    page,
  }) => {
    await gotoHome(page, site.origin)
    await sendDemoRequest(page, uniqueEmail('agenda'))
    const alert = alertDialog(page)
    await expect(alert.getByRole('heading', { name: booking.heading })).toBeVisible({
      // The server reads the calendar in the background, once, as it starts.
      timeout: 20_000,
    })
    const first = alert.getByRole('radio').first()
    const start = await first.getAttribute('value')
    expect(start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d$/)
    await first.check()
    await alert.getByRole('button', { name: booking.book }).click()
    await expect(alert.getByRole('heading', { name: booking.booked.heading })).toBeFocused()
    await expect(alert).toContainText(BOOKING_REP.name)
    await expect(alert.getByRole('link', { name: booking.booked.room })).toHaveAttribute(
      'href',
      'https://meet.gaspre.test/ana',
    )
  })

  test('without JavaScript: the form lands on the booking page, which books with a plain post', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    try {
      await page.goto(site.origin)
      await sendDemoRequest(page, uniqueEmail('agenda-sin-js'))
      await expect(page.getByRole('heading', { name: bookingPage.sentTitle })).toBeVisible()
      const times = page.getByRole('radio')
      await expect(times.first()).toBeVisible()
      expect(await times.first().getAttribute('name')).toBe('start')
      await times.first().check()
      await page.getByRole('button', { name: bookingPage.choose }).click()
      await expect(page.getByRole('heading', { name: bookingPage.meetingTitle })).toBeVisible()
      await expect(page.getByText(BOOKING_REP.name, { exact: false }).first()).toBeVisible()
    } finally {
      await context.close()
    }
  })
})
