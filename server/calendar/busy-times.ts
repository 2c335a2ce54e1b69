// When a rep is busy, from the iCalendar text of their calendar (RFC 5545), parsed and expanded
// by ical.js (Mozilla's parser, the one Thunderbird uses): single events, recurring ones with
// RRULE, RDATE and EXDATE, moved or changed occurrences (RECURRENCE-ID), all-day events, times
// in any TZID whose VTIMEZONE the calendar carries (Google, Outlook, iCloud and Nextcloud all
// send one) and across daylight-saving changes. An event marked free (TRANSP:TRANSPARENT) or
// cancelled (STATUS:CANCELLED) does not block, occurrence by occurrence.
import ICAL from 'ical.js'
import { instantOf, isTimeZone } from '../settings/index.js'

/** A span of time, ms since the epoch, end excluded. */
export interface Span {
  start: number
  end: number
}

/** Occurrences of one recurring event looked at, at most: a rule with no end stops here. */
const MAX_OCCURRENCES = 5_000

/**
 * The instant of a date or date-time of `property` on `component`. A date (all day) and a
 * floating time are the rep's wall clock; a TZID the calendar gives no VTIMEZONE for is read as
 * the IANA zone it names, when it names one.
 */
function instant(time: ICAL.Time, component: ICAL.Component, property: string, repZone: string) {
  const zone = time.zone
  if (!time.isDate && zone !== undefined && zone !== null && zone.tzid !== 'floating') {
    return time.toUnixTime() * 1000
  }
  const tzid = component.getFirstProperty(property)?.getParameter('tzid')
  const wallZone = !time.isDate && typeof tzid === 'string' && isTimeZone(tzid) ? tzid : repZone
  const minutes = time.isDate ? 0 : time.hour * 60 + time.minute
  return (
    instantOf(time.year, time.month, time.day, minutes, wallZone) +
    (time.isDate ? 0 : time.second * 1000)
  )
}

/** Whether an event, or one occurrence as changed, takes the rep's time. */
function blocks(component: ICAL.Component): boolean {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase()
  const transparency = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase()
  return status !== 'CANCELLED' && transparency !== 'TRANSPARENT'
}

function calendarsIn(text: string): ICAL.Component[] {
  const parsed = ICAL.parse(text) as unknown[]
  // One VCALENDAR parses to its jCal array; several (a CalDAV report's pieces joined) to a list.
  const list = Array.isArray(parsed[0]) ? (parsed as unknown[][]) : [parsed]
  return list.map((jcal) => new ICAL.Component(jcal as unknown as string))
}

/**
 * The busy spans of the events in `texts` (whole calendars, or a CalDAV report's objects) that
 * touch `window`, in `repZone` where the calendar gives no zone. Throws on text that is no
 * iCalendar.
 */
export function busySpans(texts: readonly string[], window: Span, repZone: string): Span[] {
  const masters = new Map<string, ICAL.Component>()
  const exceptions = new Map<string, ICAL.Component[]>()
  const loose: ICAL.Component[] = []
  for (const text of texts) {
    for (const calendar of calendarsIn(text)) {
      for (const event of calendar.getAllSubcomponents('vevent')) {
        const uid = String(event.getFirstPropertyValue('uid') ?? '')
        if (uid === '') loose.push(event)
        else if (event.hasProperty('recurrence-id')) {
          exceptions.set(uid, [...(exceptions.get(uid) ?? []), event])
        } else masters.set(uid, event)
      }
    }
  }
  const spans: Span[] = []
  const add = (start: number, end: number, component: ICAL.Component) => {
    if (!blocks(component)) return
    // An event with no length (a reminder at 10:00) takes no time.
    if (end <= start || end <= window.start || start >= window.end) return
    spans.push({ start, end })
  }
  const single = (component: ICAL.Component) => {
    const event = new ICAL.Event(component)
    add(
      instant(event.startDate, component, 'dtstart', repZone),
      instant(
        event.endDate,
        component,
        event.component.hasProperty('dtend') ? 'dtend' : 'dtstart',
        repZone,
      ),
      component,
    )
  }
  for (const component of loose) single(component)
  for (const [uid, master] of masters) {
    const changed = exceptions.get(uid) ?? []
    exceptions.delete(uid)
    const event = new ICAL.Event(master, { exceptions: changed })
    if (!event.isRecurring()) {
      single(master)
      continue
    }
    const iterator = event.iterator()
    for (let count = 0; count < MAX_OCCURRENCES; count++) {
      const next = iterator.next()
      if (next === undefined || next === null) break
      const details = event.getOccurrenceDetails(next)
      const item = details.item.component
      const endProperty = item.hasProperty('dtend') ? 'dtend' : 'dtstart'
      const start = instant(details.startDate, item, 'dtstart', repZone)
      // Past the window, by the rule's own time (a moved occurrence may come back earlier).
      if (instant(next, master, 'dtstart', repZone) >= window.end + 86_400_000) break
      add(start, instant(details.endDate, item, endProperty, repZone), item)
    }
  }
  // Changes whose series is not in the text (a CalDAV server sent only them): each as it says.
  for (const list of exceptions.values()) for (const component of list) single(component)
  return spans.sort((a, b) => a.start - b.start)
}
