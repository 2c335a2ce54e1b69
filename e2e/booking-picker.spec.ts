import { booking, demoForm } from '../testing/content'
import AxeBuilder from '@axe-core/playwright'
import type { Page, Request, Route } from '@playwright/test'
import { DOOR_PATH } from '../src/contract/demo-request-fields'
import { alertDialog, expect, gotoHome, sendDemoRequest, test, uniqueEmail } from './fixtures'

/**
 * The rep's free times after a sent request (issue 44, decision 027), with the booking address's
 * answers served by the page's network layer exactly as the interface has them: the door's real
 * answer with `booking` added, and `GET`/`POST {booking}` answered here. (The journey against the
 * real booking service is the server's suite's.)
 */

const BOOKING = '/reserva/q3Jf8v1Xb2k9T0pLm4nYwA'
const REP = 'Ana López'
const ROOM = 'https://meet.gaspre.test/ana-lopez'
const EXPIRES = '2026-12-12T16:00:00Z'

/** Free starts over five working days (UTC, ascending), as the booking address lists them. */
const FREE = [
  '2026-11-30T16:00:00Z',
  '2026-11-30T16:30:00Z',
  '2026-11-30T17:00:00Z',
  '2026-12-01T15:00:00Z',
  '2026-12-01T19:30:00Z',
  '2026-12-02T16:00:00Z',
  '2026-12-02T23:30:00Z',
  '2026-12-03T22:00:00Z',
  '2026-12-04T16:00:00Z',
]

type Meeting = { start: string; end: string; url: string }
type Answer = { status: number; body: unknown } | 'no answer'

const view = (times: readonly string[], meeting: Meeting | null = null) => ({
  status: 200,
  body: { rep: { name: REP }, minutes: 30, times, meeting, expires: EXPIRES },
})

const meetingAt = (start: string): Meeting => ({
  start: new Date(start).toISOString().replace('.000', ''),
  end: new Date(Date.parse(start) + 30 * 60_000).toISOString().replace('.000', ''),
  url: ROOM,
})

interface BookingFixture {
  /** The bodies the page posted to the booking address, in order. */
  posted: unknown[]
  /** How many times the page read the booking address. */
  reads: () => number
}

/**
 * Serves a booking address for the page's next request: the door's own answer gains `booking`,
 * each read of the address gets `read()`, each post `post(body)`.
 */
async function serveBooking(
  page: Page,
  handlers: {
    read: (count: number) => Answer | Promise<Answer>
    post?: (body: unknown) => Answer
  },
): Promise<BookingFixture> {
  const posted: unknown[] = []
  let reads = 0
  await page.route(
    (url) => url.pathname === DOOR_PATH,
    async (route) => {
      const response = await route.fetch()
      const answer = (await response.json()) as Record<string, unknown>
      await route.fulfill({
        response,
        json: response.ok() ? { ...answer, booking: BOOKING } : answer,
      })
    },
  )
  await page.route(
    (url) => url.pathname === BOOKING,
    async (route: Route, request: Request) => {
      if (request.method() === 'GET') {
        expect(request.headers().accept).toContain('application/json')
        reads += 1
        const answer = await handlers.read(reads)
        if (answer === 'no answer') return route.abort('connectionreset')
        return route.fulfill({ status: answer.status, json: answer.body }).catch(() => undefined)
      }
      const body = request.postDataJSON() as unknown
      posted.push(body)
      const answer = handlers.post?.(body) ?? 'no answer'
      if (answer === 'no answer') return route.abort('connectionreset')
      return route.fulfill({ status: answer.status, json: answer.body })
    },
  )
  return { posted, reads: () => reads }
}

async function sendRequest(page: Page, label: string): Promise<void> {
  await gotoHome(page)
  await sendDemoRequest(page, uniqueEmail(label))
  await expect(alertDialog(page).getByRole('heading', { level: 2 })).toHaveText(
    demoForm.alert.successTitle,
  )
}

const picker = (page: Page) => alertDialog(page).locator('[data-booking]')
const freeTimes = (page: Page) => alertDialog(page).getByRole('radio')

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}

/** The sum of the page's layout shifts from now on (Chromium's Layout Instability API). */
async function watchLayoutShifts(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const watched = window as unknown as { shifted: number; shifts: PerformanceObserver }
    watched.shifted = 0
    watched.shifts = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        watched.shifted += (entry as unknown as { value: number }).value
    })
    watched.shifts.observe({ type: 'layout-shift' })
  })
  return () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          // Two frames, so the last frame's shifts are recorded; then what is still queued.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const watched = window as unknown as { shifted: number; shifts: PerformanceObserver }
              for (const entry of watched.shifts.takeRecords())
                watched.shifted += (entry as unknown as { value: number }).value
              resolve(watched.shifted)
            }),
          ),
        ),
    )
}

const MEXICO_CITY_DAYS = [
  'lunes 30 de noviembre',
  'martes 1 de diciembre',
  'miércoles 2 de diciembre',
  'jueves 3 de diciembre',
  'viernes 4 de diciembre',
]

test.describe('the free times after a sent request, in Mexico City', () => {
  test.use({ timezoneId: 'America/Mexico_City' })

  test("appear under '¡Éxito!' by day, in the visitor's zone, moving nothing on screen", async ({
    page,
  }) => {
    let answerRead = () => {}
    const held = new Promise<void>((resolve) => (answerRead = resolve))
    await serveBooking(page, {
      read: async () => {
        await held
        return view(FREE)
      },
    })
    await sendRequest(page, 'agenda-aparece')
    const alert = alertDialog(page)
    await expect(alert).toContainText(demoForm.alert.successText)
    const shifted = await watchLayoutShifts(page)
    answerRead()
    await expect(freeTimes(page)).toHaveCount(FREE.length)
    expect(await shifted()).toBe(0)

    // The success message is still there, whole, above the times.
    await expect(alert.getByRole('heading', { level: 2 })).toHaveText(demoForm.alert.successTitle)
    await expect(alert).toContainText(demoForm.alert.successText)
    await expect(alert.getByRole('heading', { name: booking.heading })).toBeVisible()
    await expect(alert).toContainText(REP)
    await expect(alert).toContainText('30 minutos')
    // The zone is named, with its offset.
    await expect(alert).toContainText('(GMT−6)')
    await expect(alert.locator('fieldset legend')).toHaveText(MEXICO_CITY_DAYS)
    const groups = alert.getByRole('group')
    await expect(groups).toHaveCount(5)
    await expect(groups.nth(0).getByRole('radio')).toHaveCount(3)
    const values = await freeTimes(page).evaluateAll((radios) =>
      radios.map((radio) => [(radio as HTMLInputElement).name, (radio as HTMLInputElement).value]),
    )
    expect(values).toEqual([
      ['start', '2026-11-30T10:00:00-06:00'],
      ['start', '2026-11-30T10:30:00-06:00'],
      ['start', '2026-11-30T11:00:00-06:00'],
      ['start', '2026-12-01T09:00:00-06:00'],
      ['start', '2026-12-01T13:30:00-06:00'],
      ['start', '2026-12-02T10:00:00-06:00'],
      ['start', '2026-12-02T17:30:00-06:00'],
      ['start', '2026-12-03T16:00:00-06:00'],
      ['start', '2026-12-04T10:00:00-06:00'],
    ])
    await expect(groups.nth(0).getByRole('radio').first()).toHaveAccessibleName(/^10:00/)
    await expectNoAxeViolations(page)
  })

  // What is chosen, sent and answered is the same at any width; the phone keeps the test above,
  // where the picker meets its layout (decision 028).
  test.describe('what is chosen and sent', () => {
    test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

    test('a time is chosen with the keyboard and booked; the meeting can be moved and cancelled', async ({
      page,
    }) => {
      let meeting: Meeting | null = null
      const fixture = await serveBooking(page, {
        read: () =>
          view(
            FREE.filter(
              (start) => meeting === null || Date.parse(start) !== Date.parse(meeting.start),
            ),
            meeting,
          ),
        post: (body) => {
          const { start, cancel } = body as { start?: string; cancel?: boolean }
          meeting = cancel === true ? null : meetingAt(start!)
          return { status: 200, body: { meeting } }
        },
      })
      await sendRequest(page, 'agenda-teclado')
      await expect(freeTimes(page)).toHaveCount(FREE.length)

      // Focus is on the alert's button; the times follow it, one group for the arrows.
      await page.keyboard.press('Tab')
      await expect(freeTimes(page).first()).toBeFocused()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      await expect(freeTimes(page).nth(2)).toBeChecked()
      await page.keyboard.press('Tab')
      await expect(page.getByRole('button', { name: booking.book })).toBeFocused()
      await page.keyboard.press('Enter')

      const stated = picker(page)
      await expect(stated.getByRole('heading', { name: booking.booked.heading })).toBeFocused()
      expect(fixture.posted).toEqual([{ start: '2026-11-30T11:00:00-06:00' }])
      await expect(stated).toContainText('lunes 30 de noviembre')
      await expect(stated).toContainText(/11:00\sa\.\s?m\., .*GMT−6/)
      await expect(stated).toContainText(REP)
      await expect(stated.getByRole('link', { name: booking.booked.room })).toHaveAttribute(
        'href',
        ROOM,
      )
      await expectNoAxeViolations(page)

      // Moved to another time: the one booked is no longer offered.
      await stated.getByRole('button', { name: booking.booked.change }).click()
      await expect(stated.getByRole('heading', { name: booking.changeHeading })).toBeVisible()
      await expect(freeTimes(page)).toHaveCount(FREE.length - 1)
      await freeTimes(page).last().check()
      await page.getByRole('button', { name: booking.book }).click()
      await expect(stated.getByRole('heading', { name: booking.booked.heading })).toBeFocused()
      expect(fixture.posted[1]).toEqual({ start: '2026-12-04T10:00:00-06:00' })
      await expect(stated).toContainText('viernes 4 de diciembre')

      // Cancelled: said so, and the times are offered again.
      await stated.getByRole('button', { name: booking.booked.cancel }).click()
      await expect(stated).toContainText(booking.cancelled)
      expect(fixture.posted[2]).toEqual({ cancel: true })
      await expect(freeTimes(page)).toHaveCount(FREE.length)
      await expect(alertDialog(page)).toContainText(demoForm.alert.successText)
    })

    test("a time someone just took: the server's sentence and the fresh times", async ({
      page,
    }) => {
      const TAKEN = 'Alguien acaba de reservar esa hora. Elige otra, por favor.'
      const fixture = await serveBooking(page, {
        read: () => view(FREE),
        post: () => ({ status: 409, body: { error: TAKEN, times: FREE.slice(1) } }),
      })
      await sendRequest(page, 'agenda-ocupada')
      await freeTimes(page).first().check()
      await page.getByRole('button', { name: booking.book }).click()
      await expect(alertDialog(page).getByRole('alert')).toHaveText(TAKEN)
      expect(fixture.posted).toEqual([{ start: '2026-11-30T10:00:00-06:00' }])
      await expect(freeTimes(page)).toHaveCount(FREE.length - 1)
      await expect(freeTimes(page).first()).toHaveAttribute('value', '2026-11-30T10:30:00-06:00')
      await expectNoAxeViolations(page)
    })

    test('booking without a time chosen asks for one, and posts nothing', async ({ page }) => {
      const fixture = await serveBooking(page, { read: () => view(FREE) })
      await sendRequest(page, 'agenda-sin-hora')
      await page.getByRole('button', { name: booking.book }).click()
      await expect(alertDialog(page).getByRole('alert')).toHaveText(booking.chooseFirst)
      expect(fixture.posted).toEqual([])
    })

    const NOTHING_TO_OFFER: [string, Answer][] = [
      [
        'the calendar cannot be read (503)',
        { status: 503, body: { error: 'No pudimos leer el calendario.' } },
      ],
      [
        'the address is unknown or expired (404)',
        { status: 404, body: { error: 'Este enlace ya no es válido.' } },
      ],
      ['there is no free time in five working days', view([])],
      ['the booking address never answers', 'no answer'],
      ['the answer is not the interface', { status: 200, body: { times: 'pronto' } }],
    ]
    for (const [when, answer] of NOTHING_TO_OFFER) {
      test(`today's success message stays as it is when ${when}`, async ({ page }) => {
        const fixture = await serveBooking(page, { read: () => answer })
        await sendRequest(page, 'agenda-nada')
        await expect(picker(page)).toHaveAttribute('data-booking', 'none')
        expect(fixture.reads()).toBe(1)
        const alert = alertDialog(page)
        await expect(alert.getByRole('heading')).toHaveText([demoForm.alert.successTitle])
        await expect(alert.getByRole('button')).toHaveText([demoForm.alert.close])
        await expect(alert.getByRole('radio')).toHaveCount(0)
        await expect(alert).toContainText(demoForm.alert.successText)
      })
    }
  })
})

test.describe('the free times in Madrid', () => {
  test.use({ timezoneId: 'Europe/Madrid' })
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for the zone')

  test("are in the visitor's own zone: the late time of one day in Mexico is the next day in Spain", async ({
    page,
  }) => {
    await serveBooking(page, { read: () => view(FREE) })
    await sendRequest(page, 'agenda-madrid')
    const alert = alertDialog(page)
    await expect(freeTimes(page)).toHaveCount(FREE.length)
    await expect(alert).toContainText(/GMT\+1/)
    await expect(alert.locator('fieldset legend')).toHaveText(MEXICO_CITY_DAYS)
    await expect(alert.getByRole('group').nth(3).getByRole('radio')).toHaveCount(2)
    await expect(alert.getByRole('group').nth(3).getByRole('radio').first()).toHaveAttribute(
      'value',
      '2026-12-03T00:30:00+01:00',
    )
  })
})

test.describe('the picker on screen', () => {
  test.use({ timezoneId: 'America/Mexico_City' })
  test.skip(({ isMobile }) => isMobile, 'the widths are set here')

  for (const width of [320, 1280]) {
    test(`fits ${width} px wide, chosen and booked, and scrolls inside its window`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize({ width, height: width === 320 ? 640 : 800 })
      await serveBooking(page, {
        read: () => view(FREE),
        post: (body) => ({
          status: 200,
          body: { meeting: meetingAt((body as { start: string }).start) },
        }),
      })
      await sendRequest(page, `agenda-${width}`)
      await expect(freeTimes(page)).toHaveCount(FREE.length)
      const alert = alertDialog(page)
      const overflow = await alert.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)
      expect(overflow).toBe(0)
      await page.screenshot({ path: testInfo.outputPath(`picker-${width}.png`) })
      await alert.getByRole('radio').nth(4).check()
      await page.screenshot({ path: testInfo.outputPath(`picker-${width}-chosen.png`) })
      await alert.getByRole('button', { name: booking.book }).click()
      await expect(alert.getByRole('heading', { name: booking.booked.heading })).toBeFocused()
      expect(await alert.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBe(0)
      await page.screenshot({ path: testInfo.outputPath(`picker-${width}-booked.png`) })
    })
  }
})
