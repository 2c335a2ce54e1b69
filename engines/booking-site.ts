// A lead server of the booking journey's own (issue 44): the compiled production server, its
// store on a temp dir, and a team file whose one rep publishes a calendar at a secret address,
// served here over HTTP as Google Calendar or Outlook serve one. Each engine gets its own, so
// the times one engine books are never the ones another is offered.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSite, type RunningSite } from '../testing/site'
import { storedRequests } from '../testing/server/store'
import { waitUntil } from '../testing/wait-until.js'

export const BOOKING_REP = {
  name: 'Ana López',
  email: 'ana@gaspre.test',
  room: 'https://meet.gaspre.test/ana',
} as const

/** The rep's calendar: a meeting every working morning, in the rep's zone. */
const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//GASPRE//pruebas//ES',
  'BEGIN:VEVENT',
  'UID:junta-diaria@gaspre.test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;TZID=America/Mexico_City:20260105T090000',
  'DTEND;TZID=America/Mexico_City:20260105T100000',
  'RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR',
  'SUMMARY:Junta del equipo',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n')

export interface BookingSite {
  origin: string
  /** The meetings the server stored for one visitor's address. */
  meetingsOf(email: string): Promise<{ start: number; rep: string }[]>
  stop(): Promise<void>
}

export async function startBookingSite(): Promise<BookingSite> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-engines-booking-'))
  let calendarReads = 0
  const calendar: Server = createServer((_, response) => {
    response.on('finish', () => (calendarReads += 1))
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(CALENDAR)
  })
  await new Promise<void>((listening) => calendar.listen(0, '127.0.0.1', listening))
  const { port } = calendar.address() as AddressInfo
  const teamFile = join(dataDir, 'equipo.yml')
  await writeFile(
    teamFile,
    [
      'time_zone: America/Mexico_City',
      'reps:',
      `  - name: ${BOOKING_REP.name}`,
      `    email: ${BOOKING_REP.email}`,
      "    countries: ['*']",
      `    calendar: http://127.0.0.1:${port}/ana.ics`,
      `    meeting_url: ${BOOKING_REP.room}`,
      "    hours: 'lun-vie 09:00-19:00'",
      '',
    ].join('\n'),
  )
  const closeCalendar = () => new Promise((closed) => calendar.close(closed))
  let site: RunningSite
  try {
    site = await startSite({
      host: 'node',
      // The build the suite's global setup made fresh (site-server.ts): never built again here.
      build: { dir: 'dist' },
      showErrors: true,
      env: {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LEADS_TEAM_FILE: teamFile,
        // Both journeys send from 127.0.0.1 within a minute; the server tests check the limits.
        DEMO_RATE_LIMIT_PER_MINUTE: '100000',
        DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
      },
    })
  } catch (error) {
    await closeCalendar()
    throw error
  }
  // The server reads the calendar in the background once it starts; before that the booking
  // address answers 503 and the page keeps its usual success message. The text is a few
  // lines, parsed as soon as it arrives, while the visitor is still typing.
  await waitUntil(() => calendarReads > 0, { what: 'the server has read the rep’s calendar' })
  return {
    origin: site.origin,
    async meetingsOf(email) {
      const stored = await storedRequests({ dataDir })
      return stored.flatMap((request) =>
        request.params.user_email === email && request.meeting
          ? [{ start: request.meeting.start, rep: request.meeting.rep }]
          : [],
      )
    },
    async stop() {
      await site.stop()
      await closeCalendar()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
