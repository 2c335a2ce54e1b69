// The iCalendar invitation of a booked demo (RFC 5545), as iMIP carries it in a mail (RFC 6047):
// METHOD:REQUEST for a new or moved meeting, METHOD:CANCEL for a cancelled one, the rep as
// ORGANIZER and the visitor as ATTENDEE, one UID for the meeting's whole life and a SEQUENCE one
// higher at each change, the start and end in UTC, the video room as LOCATION and URL. Written
// with ical.js's model (the same library that reads the reps' calendars), never by hand, so
// every value is escaped and folded as the format wants. Gmail, Outlook and Apple Calendar add
// it with one click.
import ICAL from 'ical.js'
import type { MeetingData } from '../../store/index.js'

const utcTime = (at: number): ICAL.Time => ICAL.Time.fromJSDate(new Date(at), true)

/** The invitation's text: one VCALENDAR with its METHOD and one VEVENT. */
export function invitationIcs(meeting: MeetingData, summary: string, now = Date.now()): string {
  const calendar = new ICAL.Component(['vcalendar', [], []])
  calendar.addPropertyWithValue('prodid', '-//GASPRE//Demostraciones//ES')
  calendar.addPropertyWithValue('version', '2.0')
  calendar.addPropertyWithValue('calscale', 'GREGORIAN')
  calendar.addPropertyWithValue('method', meeting.method)
  const event = new ICAL.Component('vevent')
  event.addPropertyWithValue('uid', meeting.uid)
  event.addPropertyWithValue('dtstamp', utcTime(now))
  event.addPropertyWithValue('sequence', meeting.sequence)
  event.addPropertyWithValue('dtstart', utcTime(meeting.start))
  event.addPropertyWithValue('dtend', utcTime(meeting.end))
  event.addPropertyWithValue('summary', summary)
  event.addPropertyWithValue('status', meeting.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED')
  if (meeting.room !== null) {
    event.addPropertyWithValue('location', meeting.room)
    event.addPropertyWithValue('url', meeting.room)
  }
  const organizer = event.addPropertyWithValue('organizer', `mailto:${meeting.rep.email}`)
  organizer.setParameter('cn', meeting.rep.name)
  if (meeting.attendee !== null) {
    // No CN: the visitor's name is text they wrote, and the visitor's copy carries none.
    const attendee = event.addPropertyWithValue('attendee', `mailto:${meeting.attendee}`)
    attendee.setParameter('role', 'REQ-PARTICIPANT')
    attendee.setParameter('partstat', 'NEEDS-ACTION')
    attendee.setParameter('rsvp', 'TRUE')
  }
  calendar.addSubcomponent(event)
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n'
}
