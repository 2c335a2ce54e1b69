// The free times a visitor is offered from a rep's calendar, with the calendar's text parsed and
// expanded as it would be read: busy, recurring (moved and removed occurrences), all-day, free
// and cancelled events, in two time zones and across the night the clocks go back.
import { describe, expect, it } from 'vitest'
import {
  FRIDAY_EVENING,
  REP_EVENTS,
  REP_HOURS_TEXT,
  REP_ZONE,
  madrid,
} from '../../testing/server/rep-calendar.js'
import { parseWorkingHours } from '../settings/working-hours.js'
import { busySpans } from './busy-times.js'
import { BOOKING_RULE, freeStarts } from './free-times.js'

const DAY = 86_400_000
const rule = {
  ...BOOKING_RULE,
  hours: parseWorkingHours(REP_HOURS_TEXT)!,
  timeZone: REP_ZONE,
  minutes: 30,
}
const window = { start: FRIDAY_EVENING - DAY, end: FRIDAY_EVENING + 14 * DAY }
const busy = busySpans(Object.values(REP_EVENTS), window, REP_ZONE)
const offered = freeStarts(rule, busy, FRIDAY_EVENING)

/** The offered starts of one day, as Madrid's clock reads them. */
const onDay = (day: number): string[] =>
  offered
    .filter((at) => at >= madrid(day, 0) && at < madrid(day, 24))
    .map((at) =>
      new Intl.DateTimeFormat('es-ES', {
        timeZone: REP_ZONE,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(at),
    )

const ALL_DAY = [
  '09:00',
  '09:30',
  '10:00',
  '10:30',
  '11:00',
  '11:30',
  '12:00',
  '12:30',
  '13:00',
  '13:30',
]

describe("a rep's free times", () => {
  it('are the next five working days, within the hours, in 30-minute meetings', () => {
    // Friday evening has no time left: Monday to Friday of the next week.
    expect(offered.every((at) => at >= madrid(26, 9))).toBe(true)
    expect(offered.at(-1)).toBe(madrid(30, 13, 30))
    expect(offered).toEqual([...offered].sort((a, b) => a - b))
  })

  it('a daily meeting set in summer time keeps its 09:00 after the clocks go back', () => {
    expect(onDay(26)).not.toContain('09:00')
    expect(onDay(30)).not.toContain('09:00')
  })

  it('a removed occurrence frees its time, a moved one takes its new time', () => {
    expect(onDay(27)).toContain('09:00')
    expect(onDay(28)).toContain('09:00')
    expect(onDay(28)).not.toContain('12:00')
  })

  it('a call set in Mexico City time blocks the same hour in Madrid', () => {
    // 03:00-04:00 in Mexico City is 10:00-11:00 in Madrid on that Monday.
    expect(onDay(26)).toEqual(['09:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30'])
  })

  it('an event marked free and a cancelled one take no time', () => {
    expect(onDay(27)).toEqual(ALL_DAY)
  })

  it('a day off takes the whole day; a TZID without its VTIMEZONE is read as its zone', () => {
    expect(onDay(29)).toEqual([])
    // 06:00-07:00 in Bogotá is 12:00-13:00 in Madrid.
    expect(onDay(30)).toEqual(['09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30'])
  })

  it('none sooner than two hours from now, and none over a meeting booked on this site', () => {
    const mondayMorning = madrid(26, 9, 15)
    const booked = [{ start: madrid(26, 12), end: madrid(26, 12, 30) }]
    const times = freeStarts(rule, [...busy, ...booked], mondayMorning)
    expect(times[0]).toBe(madrid(26, 11, 30))
    expect(times).not.toContain(madrid(26, 12))
  })
})
