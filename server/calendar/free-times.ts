// The free-time rule (decision 026): the starts a visitor may book with a rep, in the rep's next
// five working days (days on which their hours still have time left after the lead), each
// meeting `minutes` long, wholly inside the rep's hours in the rep's time zone, on a grid from
// the opening of each span of hours, not overlapping a busy span of the calendar nor a meeting
// booked on this site, and not sooner than `leadMs` from now.
import { instantOf, wallClockOf, type WorkingHours } from '../settings/index.js'
import type { Span } from './busy-times.js'

interface FreeTimeRule {
  hours: WorkingHours
  timeZone: string
  minutes: number
  /** Working days offered. */
  days: number
  /** How soon the first start may be. */
  leadMs: number
}

/** The rule of the booking page: five working days, not sooner than two hours from now. */
export const BOOKING_RULE = { days: 5, leadMs: 2 * 60 * 60 * 1000 } as const

/** A year of days is looked through at most: hours with no day in them offer nothing. */
const MAX_DAYS_LOOKED = 370

const overlaps = (start: number, end: number, spans: readonly Span[]): boolean =>
  spans.some((span) => span.start < end && start < span.end)

/** The free starts (ms since the epoch), ascending. */
export function freeStarts(rule: FreeTimeRule, busy: readonly Span[], now: number): number[] {
  const earliest = now + rule.leadMs
  const length = rule.minutes * 60_000
  const today = wallClockOf(now, rule.timeZone)
  const starts: number[] = []
  let workingDays = 0
  for (let offset = 0; offset < MAX_DAYS_LOOKED && workingDays < rule.days; offset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset))
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
    const spans = rule.hours[date.getUTCDay()] ?? []
    const closes = spans.map(([, close]) => instantOf(year, month, day, close, rule.timeZone))
    // A day counts once it still has working time after the lead.
    if (!closes.some((close) => close - length >= earliest)) continue
    workingDays++
    spans.forEach(([open, close], index) => {
      for (let minute = open; minute + rule.minutes <= close; minute += rule.minutes) {
        const start = instantOf(year, month, day, minute, rule.timeZone)
        const end = start + length
        if (start < earliest || end > closes[index]!) continue
        if (overlaps(start, end, busy)) continue
        starts.push(start)
      }
    })
  }
  return starts
}
