// The visitor's whole journey to a booked demo against the real booking service (issue 44): a
// server of its own whose one rep publishes a calendar at a secret address, served here over
// HTTP as Google Calendar or Outlook serve one. With JavaScript, the free times follow
// '¡Éxito!' and one tap books; without it, the form's post lands on the booking page, whose
// radio buttons and plain POST book the same way.
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { booking, bookingPage } from '../testing/content'
import type { RunningSite } from '../testing/site'
import { onOneLayout, startOwnServer } from './own-server'
import { alertDialog, expect, gotoHome, sendDemoRequest, test, uniqueEmail } from './fixtures'

const DATA_DIR = 'test-results/outbox-booking-journey'
const TEAM_FILE = resolve('test-results/booking-journey/equipo.yml')
const REP = 'Ana López'

/** The rep's calendar: a weekly meeting every working morning, in the rep's zone. */
const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//GASPRE//pruebas//ES',
  'BEGIN:VEVENT',
  'UID:junta-semanal@gaspre.test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=America/Mexico_City:20260105T090000',
  'DTEND;TZID=America/Mexico_City:20260105T100000',
  'RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR',
  'SUMMARY:Junta del equipo',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n')

test.describe('a demo booked from the rep’s calendar', () => {
  onOneLayout('one layout is enough for the journey', 90_000)

  let calendar: Server
  let site: RunningSite

  test.beforeAll(async () => {
    calendar = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(CALENDAR),
    )
    await new Promise<void>((resolve) => calendar.listen(0, '127.0.0.1', resolve))
    const { port } = calendar.address() as AddressInfo
    await mkdir(resolve(TEAM_FILE, '..'), { recursive: true })
    await writeFile(
      TEAM_FILE,
      [
        'time_zone: America/Mexico_City',
        'reps:',
        `  - name: ${REP}`,
        '    email: ana@gaspre.test',
        "    countries: ['*']",
        `    calendar: http://127.0.0.1:${port}/ana.ics`,
        '    meeting_url: https://meet.gaspre.test/ana',
        "    hours: 'lun-vie 09:00-19:00'",
        '',
      ].join('\n'),
    )
    site = await startOwnServer(DATA_DIR, { LEADS_TEAM_FILE: TEAM_FILE })
  })

  test.afterAll(async () => {
    await site?.stop()
    // Never started where the project skips the journey.
    if (calendar !== undefined) await new Promise((resolve) => calendar.close(resolve))
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
    await expect(alert).toContainText(REP)
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
      await expect(page.getByText(REP, { exact: false }).first()).toBeVisible()
    } finally {
      await context.close()
    }
  })
})
