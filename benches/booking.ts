// `npm run bench:booking`: how soon a visitor sees the rep's free times once they send the demo
// form, and how long booking one of them takes (issue 44; decision 027).
//
//   1. builds the site (node pipeline/build.mjs; skip with --no-build);
//   2. serves the rep's calendar as an iCalendar file over HTTP on a loopback port, the way a
//      calendar's "secret address" publishes it (RFC 5545 text at an https URL: Google Calendar,
//      Outlook, iCloud, Fastmail, Nextcloud), with busy, recurring and all-day events in the
//      next working days;
//   3. starts the production server (build/server/main.js) with a team file (LEADS_TEAM_FILE)
//      whose one rep takes every country and has that calendar, and a throwaway DATA_DIR;
//   4. warms the calendar: one request through the door, then GET {booking} until it offers
//      free times (the server reads calendars in the background and keeps them a few minutes);
//   5. RUNS times (--runs=N, 20 by default), each in a fresh Chromium context on the phone of
//      benches/settings.mjs at its CPU slowdown: opens /, waits until it has hydrated, fills the
//      form and taps send. In the page: from the tap to the first free time painted (the frame
//      after a radio `name="start"` is in the document), then from the tap on the book button to
//      the meeting's statement painted;
//   6. prints the median, p95 and maximum of both, with the 1-minute load average.
//
// --page-only measures the page's own part against a server without booking: the door's real
// answer gains a booking address and the address's answers are served by the browser's network
// layer (as e2e/booking-picker.spec.ts does), so the figures leave the booking service out.
//
// Figures are printed, never asserted: this machine is shared and timings are noisy. Exits 1
// when the bench itself failed (no booking address in the door's answer, say).
/// <reference lib="dom" />
// (The page-side probe below runs in the browser.)
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'
import { waitForHydration } from '../testing/hydration.mjs'
import { REPO_ROOT, startSite } from '../testing/site.js'
// @ts-expect-error -- the benches' shared settings are JavaScript, typed by JSDoc for the .mjs benches
import { CPU_SLOWDOWN, PHONE } from './settings.mjs'

const argv = process.argv.slice(2)
const numberOption = (name: string, fallback: number) => {
  const value = argv.find((arg) => arg.startsWith(`${name}=`))?.split('=')[1]
  return value ? Number(value) : fallback
}
const RUNS = numberOption('--runs', 20)
const PAGE_ONLY = argv.includes('--page-only')
const CPU = numberOption('--cpu', CPU_SLOWDOWN)
const REP = 'Ana López'
const TIME_ZONE = 'America/Mexico_City'

const cleanups: (() => Promise<unknown>)[] = []

/** The next `count` working days (Monday to Friday) after today, as YYYYMMDD in UTC. */
function nextWorkingDays(count: number): string[] {
  const days: string[] = []
  const day = new Date()
  while (days.length < count) {
    day.setUTCDate(day.getUTCDate() + 1)
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6)
      days.push(day.toISOString().slice(0, 10).replaceAll('-', ''))
  }
  return days
}

/**
 * The rep's calendar: a weekly meeting, a busy morning, an all-day event, one marked free and a
 * cancelled one, in the rep's zone (RFC 5545: VTIMEZONE with TZID, RRULE, TRANSP, STATUS).
 */
function calendar(): string {
  const [first = '', second = '', third = ''] = nextWorkingDays(3)
  const event = (uid: string, lines: string[]) => [
    'BEGIN:VEVENT',
    `UID:${uid}@bench.gaspre.test`,
    'DTSTAMP:20260101T000000Z',
    ...lines,
    'END:VEVENT',
  ]
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//GASPRE//bench booking//ES',
    'BEGIN:VTIMEZONE',
    `TZID:${TIME_ZONE}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:-0600',
    'TZOFFSETTO:-0600',
    'END:STANDARD',
    'END:VTIMEZONE',
    ...event('weekly', [
      `DTSTART;TZID=${TIME_ZONE}:${first}T100000`,
      `DTEND;TZID=${TIME_ZONE}:${first}T110000`,
      'RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      'SUMMARY:Junta de ventas',
    ]),
    ...event('morning', [
      `DTSTART;TZID=${TIME_ZONE}:${second}T090000`,
      `DTEND;TZID=${TIME_ZONE}:${second}T130000`,
      'SUMMARY:Visita a cliente',
    ]),
    ...event('all-day', [`DTSTART;VALUE=DATE:${third}`, 'SUMMARY:Capacitación']),
    ...event('free', [
      `DTSTART;TZID=${TIME_ZONE}:${first}T150000`,
      `DTEND;TZID=${TIME_ZONE}:${first}T160000`,
      'TRANSP:TRANSPARENT',
      'SUMMARY:Recordatorio',
    ]),
    ...event('cancelled', [
      `DTSTART;TZID=${TIME_ZONE}:${first}T170000`,
      `DTEND;TZID=${TIME_ZONE}:${first}T180000`,
      'STATUS:CANCELLED',
      'SUMMARY:Llamada cancelada',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n')
}

/** The calendar's secret address, served from this machine; counts how often it is read. */
async function serveCalendar(): Promise<{ url: string; reads: () => number }> {
  let reads = 0
  const body = calendar()
  const server: Server = createServer((request, response) => {
    reads += 1
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/ana.ics`, reads: () => reads }
}

/** The sales team: one rep for every country, with the calendar above (CONTRACT.md). */
const teamFile = (calendarUrl: string) =>
  [
    `time_zone: ${TIME_ZONE}`,
    'meeting_minutes: 30',
    'reps:',
    `  - name: ${REP}`,
    '    email: ana@gaspre.test',
    "    countries: ['*']",
    `    calendar: ${calendarUrl}`,
    '    meeting_url: https://meet.gaspre.test/ana',
    "    hours: 'lun-vie 09:00-19:00'",
    '',
  ].join('\n')

const visitor = (run: number) => ({
  user_name: 'Visitante de prueba',
  user_email: `bench-${run}-${Date.now()}@prueba.mx`,
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Banco',
  message: '',
})

/** Sends one request through the door and waits until its booking address offers free times. */
async function warmCalendar(origin: string): Promise<void> {
  const answer = await fetch(`${origin}/api/demo-requests`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin,
      'idempotency-key': `"bench-warm-${Date.now()}"`,
    },
    body: JSON.stringify(visitor(0)),
  })
  const body = (await answer.json()) as { booking?: unknown }
  if (typeof body.booking !== 'string')
    throw new Error(
      `the door's answer (${answer.status}) carries no booking address: ${JSON.stringify(body)}. ` +
        'Does this server read LEADS_TEAM_FILE and book (issue 44)?',
    )
  const deadline = Date.now() + 60_000
  for (;;) {
    const read = await fetch(`${origin}${body.booking}`, {
      headers: { accept: 'application/json' },
    })
    const view = (await read.json()) as { times?: unknown[] }
    if (read.ok && (view.times?.length ?? 0) > 0) return
    if (Date.now() > deadline)
      throw new Error(`no free times after a minute: ${read.status} ${JSON.stringify(view)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** In the page: when the send was tapped, when the times were painted, when the meeting was. */
const PROBE = () => {
  const marks: Record<string, number> = {}
  Object.assign(window, { benchMarks: marks })
  const painted = (name: string) =>
    requestAnimationFrame(() => setTimeout(() => (marks[name] ??= performance.now()), 0))
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element
      if (target.closest('#solicitar-demo-gratis form button[type="submit"]'))
        marks.sent ??= event.timeStamp
      if (target.closest('[data-booking] button[type="submit"]')) marks.book ??= event.timeStamp
    },
    true,
  )
  new MutationObserver(() => {
    if (marks.timesShown === undefined && document.querySelector('input[name="start"]'))
      painted('timesShown')
    if (marks.booked === undefined && document.querySelector('[data-booking="booked"]'))
      painted('booked')
  }).observe(document, { childList: true, subtree: true, attributes: true })
}

/** --page-only: the booking address's answers, as the interface has them, from the page's network layer. */
async function answerBookingInPage(page: Page): Promise<void> {
  const path = '/reserva/bench-page-only'
  const start = Date.parse(
    nextWorkingDays(1)[0]!.replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3T15:00:00Z'),
  )
  const times = Array.from({ length: 60 }, (_, slot) =>
    new Date(start + (slot % 12) * 1_800_000 + Math.floor(slot / 12) * 86_400_000)
      .toISOString()
      .replace('.000', ''),
  )
  await page.route('**/api/demo-requests', async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, json: { ...(await response.json()), booking: path } })
  })
  await page.route(`**${path}`, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          json: { rep: { name: REP }, minutes: 30, times, meeting: null, expires: times.at(-1) },
        })
      : route.fulfill({
          json: {
            meeting: {
              start: times[0],
              end: new Date(start + 1_800_000).toISOString(),
              url: 'https://meet.gaspre.test/ana',
            },
          },
        }),
  )
}

type Marks = { sent?: number; timesShown?: number; book?: number; booked?: number }

async function oneVisit(browser: Browser, origin: string, run: number) {
  const context = await browser.newContext(PHONE)
  try {
    const page: Page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
    await page.addInitScript(PROBE)
    if (PAGE_ONLY) await answerBookingInPage(page)
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const form = page.locator('#solicitar-demo-gratis form')
    for (const [name, value] of Object.entries(visitor(run)))
      await form.locator(`[name="${name}"]`).fill(value)
    await form.locator('button[type="submit"]').click()
    const marks = () => page.evaluate(() => (window as unknown as { benchMarks: Marks }).benchMarks)
    await page.waitForFunction(
      () => (window as unknown as { benchMarks: Marks }).benchMarks.timesShown !== undefined,
      undefined,
      { timeout: 60_000 },
    )
    await page.locator('input[name="start"]').first().check()
    await page.locator('[data-booking] button[type="submit"]').click()
    await page.waitForFunction(
      () => (window as unknown as { benchMarks: Marks }).benchMarks.booked !== undefined,
      undefined,
      { timeout: 60_000 },
    )
    const { sent, timesShown, book, booked } = await marks()
    return { times: timesShown! - sent!, booking: booked! - book! }
  } finally {
    await context.close()
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN
}
const summary = (values: number[]) =>
  `median ${Math.round(quantile(values, 0.5))} ms, p95 ${Math.round(quantile(values, 0.95))} ms, max ${Math.round(Math.max(...values))} ms`

async function main() {
  if (!argv.includes('--no-build')) {
    console.log('Building (node pipeline/build.mjs)…')
    execFileSync(process.execPath, ['pipeline/build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' })
  }
  const scratch = await mkdtemp(join(tmpdir(), 'gaspre-bench-booking-'))
  cleanups.push(() => rm(scratch, { recursive: true, force: true }))
  const ics = await serveCalendar()
  await writeFile(join(scratch, 'equipo.yml'), teamFile(ics.url))
  const site = await startSite({
    host: 'node',
    build: { dir: join(REPO_ROOT, 'dist') },
    env: {
      DATA_DIR: join(scratch, 'data'),
      LOG_LEVEL: 'warn',
      LEADS_TEAM_FILE: join(scratch, 'equipo.yml'),
      LEADS_TIME_ZONE: TIME_ZONE,
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
    },
  })
  cleanups.push(site.stop)
  if (PAGE_ONLY) console.log('--page-only: the booking address is answered in the page.')
  else {
    await warmCalendar(site.origin)
    console.log(`Calendar warm (${ics.reads()} reads so far).`)
  }
  console.log(`${RUNS} visits, phone, CPU ${CPU}× slower…`)

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  cleanups.push(() => browser.close())
  const times: number[] = []
  const bookings: number[] = []
  for (let run = 1; run <= RUNS; run++) {
    const visit = await oneVisit(browser, site.origin, run)
    times.push(visit.times)
    bookings.push(visit.booking)
    console.log(
      `  run ${run}: free times on screen ${Math.round(visit.times)} ms, booked ${Math.round(visit.booking)} ms`,
    )
  }
  console.log(`\nFrom the tap on send to the free times on screen: ${summary(times)}`)
  console.log(`From the tap on the book button to the meeting on screen: ${summary(bookings)}`)
  console.log(
    `Calendar reads during the runs: ${ics.reads()}; load average (1 min): ${loadavg()[0]!.toFixed(1)}`,
  )
}

try {
  await main()
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
}
