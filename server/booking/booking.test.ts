// A demo request becomes a meeting: the door's answer carries a booking address when the
// request's rep has a calendar; that address shows the rep's free times, read from a real CalDAV
// server (Radicale) in the background, to the page's picker (JSON) and to a browser without
// JavaScript (a form of radio buttons), and books one of them once: two visitors who pick one
// time at the same moment get one meeting between them, on SQLite and on two servers sharing
// PostgreSQL.
import { createHash, randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { DOMParser, type Element } from '@xmldom/xmldom'
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { bookingAnswers, bookingPage } from '../../testing/content.js'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { DEMO_PARAMS, multipartBody, sendToDoor } from '../../testing/server/demo-request.js'
import { SEND_FORM_PATH } from '../../src/contract/demo-request.js'
import { makeFakeDist, OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { repCalendarForThisFile } from '../../testing/server/radicale.js'
import {
  FRIDAY_EVENING,
  REP_HOURS_TEXT,
  REP_ZONE,
  madrid,
} from '../../testing/server/rep-calendar.js'
import { rawDatabase } from '../../testing/server/store.js'
import { CalendarReader } from '../calendar/calendar-reader.js'
import { invitationMail } from '../channels/mail/invitation-mail.js'
import { mailSender } from '../channels/mail/mail-sender.js'
import { startSmtpPeer } from '../../testing/server/delivery-peers.js'
import type { NoticePayload } from '../store/records.js'
import { asJson, formatRecord } from '../cli/listing.js'
import { DemoRequests } from '../demo-requests/demo-requests.js'
import { SiteBuildError } from '../http/index.js'
import { DeliveryWorker } from '../delivery/worker.js'
import { parseTeam } from '../settings/team-file.js'
import { parseWorkingHours } from '../settings/working-hours.js'
import type { LeadStore } from '../store/lead-store.js'
import { Bookings } from './bookings.js'

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

const repCalendar = repCalendarForThisFile()

const team = (calendar: string) =>
  parseTeam(
    `meeting_minutes: 30
reps:
  - name: Ana López
    email: ana@gaspre.mx
    countries: ['*']
    calendar: ${calendar}
    meeting_url: https://meet.example.com/ana
    hours: ${REP_HOURS_TEXT}
    time_zone: ${REP_ZONE}
`,
    { hours: parseWorkingHours('lun-vie 09:00-19:00')!, timeZone: 'America/Mexico_City' },
  )

/** The page's elements by tag name (xmldom reads the page React rendered). */
const page = (html: string) => {
  const document = new DOMParser().parseFromString(html, 'text/html')
  const all = (
    tag: string,
    within: {
      getElementsByTagName(tag: string): { length: number; item(i: number): Element | null }
    } = document,
  ): Element[] => {
    const found = within.getElementsByTagName(tag)
    return Array.from({ length: found.length }, (_, index) => found.item(index)!)
  }
  return { all, text: document.documentElement?.textContent ?? '' }
}

const utc = (at: number) => new Date(at).toISOString().replace('.000Z', 'Z')
const JSON_ACCEPT = { accept: 'application/json' }

/** An app whose rep's calendar is `calendar`, on a store of its own (or PostgreSQL's). */
async function bookingApp(
  options: { databaseUrl?: string; calendar?: string; distDir?: string } = {},
) {
  const now = () => FRIDAY_EVENING
  let reader: CalendarReader | null = null
  const app = await appOnTemporaryStore({
    distDir: options.distDir ?? dist.dist,
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
    bookings: (store: LeadStore) => {
      const members = team(options.calendar ?? repCalendar.collection)
      reader = new CalendarReader(
        members.reps.map((rep) => ({
          rep: rep.email,
          address: rep.calendar!,
          timeZone: rep.timeZone,
        })),
        {
          now,
          health: {
            fault: async (reason, startedAt) => {
              await store.channels.recordFault('calendar', reason, startedAt, () => 60_000)
            },
            works: async () => {
              await store.channels.recordWorks('calendar', true)
            },
          },
        },
      )
      return new Bookings(store, members, reader, {
        regions: ['MX', 'ES'],
        now,
        carriers: { mail: true, webhook: true },
      })
    },
  })
  cleanups.push(() => app.close())
  await app.bookings!.start()
  return app
}

async function requestDemo(app: AppOnStore, params: Record<string, string> = {}): Promise<string> {
  const response = await sendToDoor(
    app.request,
    {
      ...DEMO_PARAMS,
      user_email: `ana-${randomUUID()}@gasolinera.mx`,
      user_phone: '+34 612 345 678',
      ...params,
    },
    randomUUID(),
  )
  expect(response.status).toBe(200)
  const answer = JSON.parse(response.text) as { id: string; booking?: string }
  expect(answer.booking).toMatch(/^\/reserva\/[A-Za-z0-9_-]{22}$/)
  return answer.booking!
}

const picker = async (app: AppOnStore, booking: string) => {
  const response = await app.request(booking, { headers: JSON_ACCEPT })
  return { status: response.status, body: JSON.parse(response.text) as Record<string, unknown> }
}

const book = (app: AppOnStore, booking: string, body: unknown) =>
  app.request(booking, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...JSON_ACCEPT },
    body: JSON.stringify(body),
  })

describe('booking a demo from the rep’s calendar', () => {
  it('the door answers a booking address; the picker gets the free times read by CalDAV', async () => {
    const app = await bookingApp()
    const booking = await requestDemo(app)
    const { status, body } = await picker(app, booking)
    expect(status).toBe(200)
    expect(body).toMatchObject({ rep: { name: 'Ana López' }, minutes: 30, meeting: null })
    const times = body.times as string[]
    // Monday after the clocks went back: the stand-up at 09:00 and the Mexico call 10:00-11:00.
    expect(times.slice(0, 7)).toEqual(
      [
        [9, 30],
        [11, 0],
        [11, 30],
        [12, 0],
        [12, 30],
        [13, 0],
        [13, 30],
      ].map(([h, m]) => utc(madrid(26, h!, m))),
    )
    expect(times).not.toContain(utc(madrid(29, 10)))
    // The store keeps the token's hash, never the token.
    const token = booking.split('/').at(-1)!
    const rows = await rawDatabase(app.store).selectFrom('lead_bookings').selectAll().execute()
    expect(rows.map((row) => row.token_hash)).toEqual([
      createHash('sha256').update(token).digest('hex'),
    ])
  })

  it('a booked time is the visitor’s meeting, and nobody else is offered it', async () => {
    const app = await bookingApp()
    const first = await requestDemo(app)
    const second = await requestDemo(app)
    const start = utc(madrid(27, 10))
    const response = await book(app, first, { start: '2026-10-27T10:00:00+01:00' })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.text)).toEqual({
      meeting: { start, end: utc(madrid(27, 10, 30)), url: 'https://meet.example.com/ana' },
    })
    expect((await picker(app, first)).body.meeting).toMatchObject({ start })
    expect((await picker(app, second)).body.times).not.toContain(start)
    // Moved, then cancelled.
    const moved = await book(app, first, { start: utc(madrid(27, 11)) })
    expect(JSON.parse(moved.text)).toMatchObject({ meeting: { start: utc(madrid(27, 11)) } })
    expect((await picker(app, second)).body.times).toContain(start)
    const cancelled = await book(app, first, { cancel: true })
    expect(JSON.parse(cancelled.text)).toEqual({ meeting: null })
    expect((await picker(app, second)).body.times).toContain(utc(madrid(27, 11)))
  })

  it('a start that is not offered is a 422; an unknown address a 404', async () => {
    const app = await bookingApp()
    const booking = await requestDemo(app)
    const offHours = await book(app, booking, { start: utc(madrid(27, 16)) })
    expect(offHours.status).toBe(422)
    expect(JSON.parse(offHours.text)).toEqual({ error: bookingAnswers.notOffered })
    const busy = await book(app, booking, { start: utc(madrid(26, 9)) })
    expect(busy.status).toBe(409)
    // Another site's page cannot book through the visitor's browser.
    const crossSite = await app.request(booking, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ start: utc(madrid(27, 12, 30)) }),
    })
    expect(crossSite.status).toBe(403)
    expect((await picker(app, booking)).body.meeting).toBeNull()
    const unknown = await picker(app, '/reserva/AAAAAAAAAAAAAAAAAAAAAA')
    expect(unknown).toEqual({ status: 404, body: { error: bookingAnswers.unknown } })
  })

  it('without JavaScript: radio buttons by day in the visitor’s zone, a form that books', async () => {
    const app = await bookingApp()
    const booking = await requestDemo(app)
    const response = await app.request(booking, { headers: { accept: 'text/html' } })
    expect(response.status).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['content-security-policy']).toContain("default-src 'self'")
    const shown = page(response.text)
    const first = shown.all('fieldset')[0]!
    expect(shown.all('legend', first)[0]!.textContent).toBe('Lunes, 26 de octubre')
    const values = shown
      .all('input', first)
      .filter(
        (input) => input.getAttribute('type') === 'radio' && input.getAttribute('name') === 'start',
      )
      .map((input) => input.getAttribute('value')!)
    expect(values[0]).toBe('2026-10-26T09:30:00+01:00')
    expect(shown.text).toContain('Europe/Madrid')

    const answer = await app.request(booking, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ start: values[0]! }).toString(),
    })
    expect(answer.status).toBe(200)
    const stated = page(answer.text)
    expect(stated.all('h1')[0]!.textContent).toBe(bookingPage.meetingTitle)
    // The zone's name, then the zone itself in parentheses: never one bracket inside another.
    expect(stated.text).toMatch(/Lunes, 26 de octubre, 09:30, [^()]+ \(Europe\/Madrid\)/)
    expect(stated.text).toContain('Ana López')
    expect(stated.all('a').map((link) => link.getAttribute('href'))).toContain(
      'https://meet.example.com/ana',
    )
    expect(
      stated
        .all('input')
        .some(
          (input) => input.getAttribute('name') === 'cancel' && input.getAttribute('value') === '1',
        ),
    ).toBe(true)

    const again = await app.request(booking, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'cancel=1',
    })
    expect(again.status).toBe(200)
    expect((await picker(app, booking)).body.meeting).toBeNull()
  })

  it('a calendar that cannot be read: 503, and the calendar channel is failing', async () => {
    const app = await bookingApp({ calendar: 'http://127.0.0.1:9/nadie/' })
    const booking = await requestDemo(app)
    expect(await picker(app, booking)).toEqual({
      status: 503,
      body: { error: bookingAnswers.unavailable },
    })
    const health = await app.request('/healthz/delivery')
    expect(JSON.parse(health.text)).toMatchObject({ channels: { calendar: 'failing' } })
  })

  for (const store of ['sqlite', 'postgres'] as const) {
    it(`a retry of the send with the same key gets the same answer, its booking address included (${store})`, async () => {
      const app = await bookingApp(
        store === 'postgres' ? { databaseUrl: await freshDatabase() } : {},
      )
      const key = randomUUID()
      const params = {
        ...DEMO_PARAMS,
        user_email: `ana-${key}@gasolinera.mx`,
        user_phone: '+34 612 345 678',
      }
      const first = JSON.parse((await sendToDoor(app.request, params, key)).text)
      expect(first.booking).toMatch(/^\/reserva\//)
      await book(app, first.booking, { start: utc(madrid(30, 10)) })
      const again = await sendToDoor(app.request, params, key)
      expect(JSON.parse(again.text)).toEqual(first)
      expect((await picker(app, first.booking)).body.meeting).toMatchObject({
        start: utc(madrid(30, 10)),
      })
      // Another key is another request, with an address of its own.
      const other = JSON.parse((await sendToDoor(app.request, params, randomUUID())).text)
      expect(other.id).not.toBe(first.id)
      expect(other.booking).not.toBe(first.booking)
    })
  }

  it('the form sent without JavaScript lands on the booking page', async () => {
    const app = await bookingApp()
    const form = new FormData()
    for (const [name, value] of Object.entries({
      ...DEMO_PARAMS,
      user_phone: '+34 612 345 678',
      user_id: 'k',
      service_id: 's',
      template_id: 't',
    })) {
      form.set(name, value)
    }
    const { type, body } = await multipartBody(form)
    const answer = await app.request(SEND_FORM_PATH, {
      method: 'POST',
      headers: { 'content-type': type, 'sec-fetch-mode': 'navigate', accept: 'text/html' },
      body,
    })
    expect(answer.status).toBe(303)
    const landing = answer.headers.location as string
    expect(landing).toMatch(/^\/reserva\/[A-Za-z0-9_-]{22}\?enviada=1$/)
    const shown = page((await app.request(landing, { headers: { accept: 'text/html' } })).text)
    expect(shown.all('h1')[0]!.textContent).toBe('Recibimos tu solicitud')
    expect(shown.all('fieldset').length).toBeGreaterThan(0)
  })

  it('a build made before the booking, without its words, stops the start: build again', async () => {
    const old = await makeFakeDist({ ...OWN_SERVER_BUILD, bookingTexts: null })
    cleanups.push(() => rm(old.root, { recursive: true, force: true }))
    await expect(bookingApp({ distDir: old.dist })).rejects.toThrow(
      new SiteBuildError(
        `${old.dist} was built before the booking of a demo and has none of its words: run npm run build again.`,
      ),
    )
  })

  it('the rep whose turn it is decides: a rep without a calendar offers no booking', async () => {
    const app = await appOnTemporaryStore({
      distDir: dist.dist,
      bookings: (store: LeadStore) => {
        const members = parseTeam(
          `reps:
  - name: Ana López
    email: ana@gaspre.mx
    countries: ['*']
    calendar: ${repCalendar.collection}
    meeting_url: https://meet.example.com/ana
  - name: Jorge Ruiz
    email: jorge@gaspre.mx
    countries: ['*']
`,
          { hours: parseWorkingHours(REP_HOURS_TEXT)!, timeZone: REP_ZONE },
        )
        const reader = new CalendarReader(
          [{ rep: 'ana@gaspre.mx', address: repCalendar.collection, timeZone: REP_ZONE }],
          { now: () => FRIDAY_EVENING, health: { fault: async () => {}, works: async () => {} } },
        )
        return new Bookings(store, members, reader, {
          regions: ['MX'],
          now: () => FRIDAY_EVENING,
          carriers: { mail: true, webhook: true },
        })
      },
    })
    cleanups.push(() => app.close())
    const answers = []
    for (const turn of [1, 2, 3]) {
      const response = await sendToDoor(
        app.request,
        { ...DEMO_PARAMS, user_email: `turn-${turn}@gasolinera.mx` },
        randomUUID(),
      )
      answers.push('booking' in JSON.parse(response.text))
    }
    expect(answers).toEqual([true, false, true])
  })

  for (const kind of ['sqlite', 'postgres'] as const) {
    it(`two visitors who pick one time at the same moment get one meeting (${kind})`, async () => {
      const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
      const one = await bookingApp({ ...(databaseUrl !== undefined && { databaseUrl }) })
      // On PostgreSQL, a second server on the same database.
      const other = databaseUrl === undefined ? one : await bookingApp({ databaseUrl })
      const first = await requestDemo(one)
      const second = await requestDemo(other)
      const start = utc(madrid(28, 10))
      const answers = await Promise.all([
        book(one, first, { start }),
        book(other, second, { start }),
      ])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
      const refused = JSON.parse(answers.find((answer) => answer.status === 409)!.text)
      expect(refused.error).toBe(bookingAnswers.taken)
      expect(refused.times).not.toContain(start)
      expect(refused.times).toContain(utc(madrid(28, 10, 30)))
      const meetings = await rawDatabase(one.store)
        .selectFrom('lead_meetings')
        .selectAll()
        .execute()
      expect(meetings.filter((row) => Number(row.start_at) === madrid(28, 10))).toHaveLength(1)
    })
  }
})

/** The meeting notices queued so far (no worker runs here), oldest first. */
async function meetingNotices(app: AppOnStore) {
  const rows = await rawDatabase(app.store)
    .selectFrom('lead_jobs')
    .selectAll()
    .where('kind', '=', 'notice')
    .orderBy('queued_at')
    .execute()
  return rows
    .map((row) => ({ channel: row.channel, payload: JSON.parse(row.payload!) as NoticePayload }))
    .filter(({ payload }) => payload.data.meeting !== undefined)
}

/** The VEVENT of an invitation, parsed back by ical.js, with its calendar's METHOD. */
function parsedInvitation(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics) as unknown as string)
  const event = calendar.getFirstSubcomponent('vevent')!
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: event.getFirstPropertyValue('sequence'),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime(),
    end: (event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().getTime(),
    startText: event.getFirstProperty('dtstart')!.toICALString(),
    organizer: event.getFirstPropertyValue('organizer'),
    organizerName: event.getFirstProperty('organizer')!.getParameter('cn'),
    attendee: event.getFirstPropertyValue('attendee'),
    location: event.getFirstPropertyValue('location'),
    url: event.getFirstPropertyValue('url'),
    status: event.getFirstPropertyValue('status'),
  }
}

describe('the invitation both calendars take', () => {
  it('one mail to the visitor and one to the rep, METHOD:REQUEST; a change SEQUENCE+1; a cancel', async () => {
    const app = await bookingApp()
    const visitor = { user_name: 'Lucía Méndez', user_group: 'Estaciones del Valle' }
    const booking = await requestDemo(app, visitor)
    await book(app, booking, { start: utc(madrid(27, 10)) })
    const [toVisitorNotice, rep, crm] = await meetingNotices(app)
    expect([toVisitorNotice, rep, crm].map((each) => [each!.channel, each!.payload.type])).toEqual([
      ['email', 'meeting.invitation'],
      ['email', 'meeting.invitation'],
      ['webhook', 'demo_request.booked'],
    ])
    const toVisitor = invitationMail(toVisitorNotice!.payload.data.meeting!)
    const toRep = invitationMail(rep!.payload.data.meeting!)
    const invited = parsedInvitation(toVisitor.ics)
    expect(invited).toMatchObject({
      method: 'REQUEST',
      sequence: 0,
      start: madrid(27, 10),
      end: madrid(27, 10, 30),
      organizer: 'mailto:ana@gaspre.mx',
      organizerName: 'Ana López',
      location: 'https://meet.example.com/ana',
      url: 'https://meet.example.com/ana',
      status: 'CONFIRMED',
    })
    // The start in UTC.
    expect(invited.startText).toBe('DTSTART:20261027T090000Z')
    expect(invited.attendee).toBe(`mailto:${toVisitor.to}`)
    expect(parsedInvitation(toRep.ics).uid).toBe(invited.uid)
    expect(toRep.to).toBe('ana@gaspre.mx')

    // The visitor's mail: the day and hour in their zone, the link, and nothing they wrote.
    expect(toVisitor.text).toContain('martes, 27 de octubre de 2026, 10:00')
    expect(toVisitor.text).toContain(`http://127.0.0.1:3000${booking}`)
    expect(toVisitor.text).toMatch(/^Hola:/)
    for (const written of [visitor.user_name, visitor.user_group]) {
      expect(toVisitor.text).not.toContain(written)
      expect(toVisitor.html).not.toContain(written)
      expect(toVisitor.ics).not.toContain(written)
    }
    // The rep's: the request's details.
    expect(toRep.text).toContain(`Nombre: ${visitor.user_name}`)
    expect(toRep.replyTo).toBe(toVisitor.to)

    await book(app, booking, { start: utc(madrid(27, 11)) })
    await book(app, booking, { cancel: true })
    const all = await meetingNotices(app)
    const visitorMails = all
      .filter(({ payload }) => payload.type === 'meeting.invitation')
      .filter(({ payload }) => payload.data.meeting!.for === 'visitor')
      .map(({ payload }) => parsedInvitation(invitationMail(payload.data.meeting!).ics))
    expect(visitorMails.map(({ method, sequence, uid }) => [method, sequence, uid])).toEqual([
      ['REQUEST', 0, invited.uid],
      ['REQUEST', 1, invited.uid],
      ['CANCEL', 2, invited.uid],
    ])
    expect(
      all.map(({ payload }) => payload.type).filter((type) => type !== 'meeting.invitation'),
    ).toEqual(['demo_request.booked', 'demo_request.booked', 'demo_request.booking_cancelled'])
  })

  it('at most three invitations a day to one address, however many bookings', async () => {
    const app = await bookingApp()
    const email = `una-${randomUUID()}@gasolinera.mx`
    const bookings: string[] = []
    for (let each = 0; each < 3; each++) {
      const response = await sendToDoor(
        app.request,
        { ...DEMO_PARAMS, user_email: email, user_phone: '+34 612 345 678' },
        randomUUID(),
      )
      bookings.push(JSON.parse(response.text).booking)
    }
    await book(app, bookings[0]!, { start: utc(madrid(26, 11)) })
    await book(app, bookings[0]!, { start: utc(madrid(26, 11, 30)) })
    await book(app, bookings[1]!, { start: utc(madrid(26, 12)) })
    await book(app, bookings[2]!, { start: utc(madrid(26, 12, 30)) })
    const toVisitor = (await meetingNotices(app)).filter(
      ({ payload }) => payload.data.meeting!.for === 'visitor',
    )
    expect(toVisitor).toHaveLength(3)
    // The rep hears of every booking.
    const toRep = (await meetingNotices(app)).filter(
      ({ payload }) => payload.type === 'meeting.invitation' && payload.data.meeting!.for === 'rep',
    )
    expect(toRep).toHaveLength(4)
  })

  it("the rep's calendar takes the invitation: stored in Radicale, the time is busy there", async () => {
    const app = await bookingApp()
    const booking = await requestDemo(app)
    await book(app, booking, { start: utc(madrid(30, 11)) })
    const [, rep] = await meetingNotices(app)
    const ics = invitationMail(rep!.payload.data.meeting!).ics
    // A calendar stores the event without the iTIP METHOD (RFC 4791, 4.1).
    const stored = ics.replace(/^METHOD:.*\r\n/m, '')
    const calendar = await repCalendar.radicale.calendar(`/ana/importada-${randomUUID()}/`)
    await repCalendar.radicale.put(calendar, 'demo.ics', stored)
    const reader = new CalendarReader(
      [{ rep: 'ana@gaspre.mx', address: calendar, timeZone: REP_ZONE }],
      { now: () => FRIDAY_EVENING, health: { fault: async () => {}, works: async () => {} } },
    )
    await reader.start()
    await reader.stop()
    expect(reader.cached('ana@gaspre.mx')!.busy).toEqual([
      { start: madrid(30, 11), end: madrid(30, 11, 30) },
    ])
  })
})

describe('an invitation through the mail channel', () => {
  it('goes to its one address as iMIP: a text/calendar part with METHOD:REQUEST', async () => {
    const smtp = await startSmtpPeer()
    cleanups.push(() => smtp.close())
    const app = await bookingApp()
    const booking = await requestDemo(app)
    await book(app, booking, { start: utc(madrid(28, 13)) })
    const [visitor] = await meetingNotices(app)
    const sender = mailSender(
      { smtpUrl: smtp.url, to: ['ventas@gaspre.mx'], from: 'GASPRE <avisos@gaspre.mx>' },
      'America/Mexico_City',
    )
    const notice = {
      id: randomUUID(),
      carrier: 'email' as const,
      type: visitor!.payload.type,
      subject: visitor!.payload.subject,
      data: visitor!.payload.data,
      createdAt: visitor!.payload.createdAt,
      attempts: 0,
      requestId: null,
      faultedAt: null,
    }
    const outcome = await sender.send(
      { kind: 'notice', notice },
      new AbortController().signal,
      async () => {},
    )
    expect(outcome).toEqual({ kind: 'delivered' })
    const address = visitor!.payload.data.meeting!.address
    expect(smtp.envelopes).toEqual([[address]])
    const mail = smtp.mails[0]!
    expect(mail.replyTo?.value).toEqual([{ name: '', address: 'ana@gaspre.mx' }])
    const calendar = mail.attachments.find((part) => part.contentType === 'text/calendar')!
    expect(calendar.headers.get('content-type')).toMatchObject({ params: { method: 'REQUEST' } })
    const invited = parsedInvitation(calendar.content.toString('utf8'))
    expect(invited).toMatchObject({ method: 'REQUEST', start: madrid(28, 13) })
  })
})

describe("a person's meetings and their privacy", () => {
  it('the export and the listing show the meeting; an erasure cancels it for the rep', async () => {
    const app = await bookingApp()
    const email = `borrar-${randomUUID()}@gasolinera.mx`
    const booking = await requestDemo(app, { user_email: email, user_name: 'Lucía Méndez' })
    await book(app, booking, { start: utc(madrid(30, 10, 30)) })
    const [stored] = (await app.stored()).filter((each) => each.params.user_email === email)
    expect(asJson(stored!).meeting).toEqual({
      start: new Date(madrid(30, 10, 30)).toISOString(),
      end: new Date(madrid(30, 11)).toISOString(),
      rep: 'ana@gaspre.mx',
    })
    expect(formatRecord(stored!, 1, 'Europe/Madrid')).toContain(
      'Demo:               viernes, 30 de octubre de 2026, 10:30 (Europe/Madrid), con ana@gaspre.mx',
    )

    const demoRequests = new DemoRequests({
      store: app.store,
      channels: [],
      worker: null,
      alertAfterMs: 600_000,
      bookings: app.bookings,
    })
    await demoRequests.erase([stored!.id], 'person-request')
    const db = rawDatabase(app.store)
    expect(await db.selectFrom('lead_meetings').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('lead_bookings').selectAll().execute()).toEqual([])
    // What stays is the rep's cancellation and the CRM's event: no visitor, no request.
    const left = await meetingNotices(app)
    expect(left.map(({ payload }) => [payload.type, payload.data.meeting!.method])).toEqual([
      ['meeting.invitation', 'CANCEL'],
      ['demo_request.booking_cancelled', 'CANCEL'],
    ])
    const cancel = invitationMail(left[0]!.payload.data.meeting!)
    expect(cancel.to).toBe('ana@gaspre.mx')
    expect(`${cancel.text}${cancel.ics}`).not.toMatch(/Lucía|borrar-/)
    expect(parsedInvitation(cancel.ics)).toMatchObject({ method: 'CANCEL', status: 'CANCELLED' })
  })

  it('retention takes a meeting with its request', async () => {
    const app = await bookingApp()
    const booking = await requestDemo(app)
    await book(app, booking, { start: utc(madrid(30, 9, 30)) })
    const ids = (await app.stored()).map((each) => each.id)
    await app.store.erasure.eraseRequests(ids, 'retention')
    const db = rawDatabase(app.store)
    expect(await db.selectFrom('lead_meetings').selectAll().execute()).toEqual([])
    expect(await meetingNotices(app)).toEqual([])
  })
})

describe('a calendar that cannot be read, told as a channel', () => {
  it('the worker tells it after LEADS_ALERT_AFTER_SECONDS, once, and again when it recovers', async () => {
    const app = await bookingApp()
    const worker = new DeliveryWorker(
      app.store,
      {
        email: {
          smtpUrl: 'smtp://127.0.0.1:9',
          to: ['ventas@gaspre.mx'],
          from: 'avisos@gaspre.mx',
        },
        timeZone: 'America/Mexico_City',
        alertAfterMs: 50,
      },
      { alertAfterMs: 50, pollMs: 20, watch: ['calendar'] },
    )
    worker.start(app.app.log)
    cleanups.push(() => worker.stop())
    const calendarNotices = async () =>
      (
        await rawDatabase(app.store)
          .selectFrom('lead_jobs')
          .select('once_key')
          .where('kind', '=', 'notice')
          .execute()
      )
        .map((row) => row.once_key!)
        .filter((key) => key.includes('/calendar/'))
        .map((key) => key.split('/')[0])
    const until = async (condition: () => Promise<boolean>) => {
      while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await worker.watchedFault('calendar', 'HTTP 404', Date.now())
    await until(async () => (await calendarNotices()).length > 0)
    expect(await calendarNotices()).toEqual(['delivery.failing'])
    const health = JSON.parse((await app.request('/healthz/delivery')).text)
    expect(health.channels.calendar).toBe('failing')
    await worker.watchedWorks('calendar')
    expect((await calendarNotices()).sort()).toEqual(['delivery.failing', 'delivery.recovered'])
    expect(JSON.parse((await app.request('/healthz/delivery')).text).channels.calendar).toBe(
      'delivering',
    )
  })
})
