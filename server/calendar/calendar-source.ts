// Reading a rep's calendar over HTTP, as the team file names it: an iCalendar address (the
// "secret address" Google Calendar, Outlook, iCloud, Fastmail and Nextcloud publish) is fetched
// whole with GET; a CalDAV collection (an address ending in `/`) is asked for the events in a
// time range with a REPORT calendar-query (RFC 4791, section 7.8: a VEVENT comp-filter with a
// time-range, Depth: 1; the answer is a 207 multistatus whose calendar-data holds each object,
// read with xmldom by its namespace, whatever prefix the server chose).
// A user and password in the address are sent as Basic authentication, never in the URL.
import { DOMParser } from '@xmldom/xmldom'
import type { Span } from './busy-times.js'

/** What a read may take before it is cut: the calendar's server is never waited on longer. */
const READ_DEADLINE_MS = 15_000
/** The most a calendar may weigh: a calendar of years of events is a few megabytes. */
const MAX_BYTES = 20 * 1024 * 1024

/** A calendar that cannot be read: its reason is for the log and the sales team's notice. */
export class CalendarReadError extends Error {
  override name = 'CalendarReadError'
}

/** The address to ask, and its credentials apart. */
function request(address: string): { url: string; authorization: string | null } {
  const url = new URL(address)
  const authorization =
    url.username === ''
      ? null
      : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
  url.username = ''
  url.password = ''
  return { url: url.href, authorization }
}

/** RFC 5545's UTC form, as a CalDAV time-range takes it: 20261201T000000Z. */
const utcStamp = (at: number): string =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

const calendarQuery = (window: Span): string =>
  `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><C:calendar-data/></D:prop>
  <C:filter>
    <C:comp-filter name="VCALENDAR">
      <C:comp-filter name="VEVENT">
        <C:time-range start="${utcStamp(window.start)}" end="${utcStamp(window.end)}"/>
      </C:comp-filter>
    </C:comp-filter>
  </C:filter>
</C:calendar-query>`

const CALDAV = 'urn:ietf:params:xml:ns:caldav'

/** Every calendar-data of a multistatus answer (xmldom throws on XML that is not well formed). */
function calendarData(body: string): string[] {
  const document = new DOMParser().parseFromString(body, 'application/xml')
  const nodes = document.getElementsByTagNameNS(CALDAV, 'calendar-data')
  const found: string[] = []
  for (let index = 0; index < nodes.length; index++) {
    const text = nodes.item(index)?.textContent ?? ''
    if (text.trim() !== '') found.push(text)
  }
  return found
}

async function bodyOf(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > MAX_BYTES)
    throw new CalendarReadError(`the calendar is larger than ${MAX_BYTES} bytes`)
  const text = await response.text()
  if (Buffer.byteLength(text) > MAX_BYTES) {
    throw new CalendarReadError(`the calendar is larger than ${MAX_BYTES} bytes`)
  }
  return text
}

/**
 * The iCalendar texts of a calendar for `window`: the whole file of an iCalendar address, or
 * each object a CalDAV collection finds in the window. Throws a CalendarReadError saying why
 * it could not be read (no address or password in the reason).
 */
export async function readCalendar(
  address: string,
  window: Span,
  signal?: AbortSignal,
): Promise<string[]> {
  const { url, authorization } = request(address)
  const caldav = new URL(url).pathname.endsWith('/')
  const deadline = AbortSignal.timeout(READ_DEADLINE_MS)
  let response: Response
  try {
    response = await fetch(url, {
      method: caldav ? 'REPORT' : 'GET',
      headers: {
        accept: caldav ? 'application/xml, text/xml' : 'text/calendar',
        ...(caldav && { 'content-type': 'application/xml; charset=utf-8', depth: '1' }),
        ...(authorization !== null && { authorization }),
      },
      ...(caldav && { body: calendarQuery(window) }),
      redirect: 'follow',
      signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    throw new CalendarReadError(
      deadline.aborted
        ? `no answer within ${READ_DEADLINE_MS / 1000} s`
        : `cannot reach the calendar's server${cause !== undefined ? ` (${cause})` : ''}`,
    )
  }
  const expected = caldav ? 207 : 200
  if (response.status !== expected) {
    await response.body?.cancel()
    throw new CalendarReadError(`HTTP ${response.status}`)
  }
  const body = await bodyOf(response)
  if (!caldav) {
    if (!/^\s*BEGIN:VCALENDAR/i.test(body)) {
      throw new CalendarReadError('the address does not answer with an iCalendar file')
    }
    return [body]
  }
  try {
    return calendarData(body)
  } catch {
    throw new CalendarReadError('the CalDAV answer is not a multistatus')
  }
}
