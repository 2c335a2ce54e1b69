// The reps' calendars read from a real CalDAV server (Radicale, started here): as a CalDAV
// collection (REPORT calendar-query with a time range) and as an iCalendar address (GET), the
// same busy times either way; a calendar that cannot be read is a fault of the `calendar`
// channel, what was read before is kept, and the next good read recovers it.
import { describe, expect, it } from 'vitest'
import { repCalendarForThisFile } from '../../testing/server/radicale.js'
import { FRIDAY_EVENING, REP_ZONE, madrid } from '../../testing/server/rep-calendar.js'
import { CalendarReader, type CalendarHealth } from './calendar-reader.js'

const repCalendar = repCalendarForThisFile()

/** What the reader told the channel's health, in order. */
function healthLog() {
  const said: string[] = []
  const health: CalendarHealth = {
    fault: async (reason) => void said.push(`fault: ${reason}`),
    works: async () => void said.push('works'),
  }
  return { said, health }
}

const reader = (address: string, health: CalendarHealth) =>
  new CalendarReader([{ rep: 'ana@gaspre.mx', address, timeZone: REP_ZONE }], {
    health,
    now: () => FRIDAY_EVENING,
  })

describe("the reps' calendars", () => {
  it('a CalDAV collection and its iCalendar address give the same busy times', async () => {
    const { said, health } = healthLog()
    const caldav = reader(repCalendar.collection, health)
    await caldav.start()
    // Radicale answers GET on a collection with the whole calendar as one iCalendar file.
    const ics = reader(repCalendar.collection.replace(/\/$/, ''), health)
    await ics.start()
    await Promise.all([caldav.stop(), ics.stop()])
    const busy = caldav.cached('ana@gaspre.mx')!.busy
    expect(busy).toEqual(ics.cached('ana@gaspre.mx')!.busy)
    expect(said).toEqual(['works', 'works'])
    // The stand-up after the clocks went back, the Mexico call, the day off, the moved stand-up.
    expect(busy).toContainEqual({ start: madrid(26, 9), end: madrid(26, 9, 30) })
    expect(busy).toContainEqual({ start: madrid(26, 10), end: madrid(26, 11) })
    expect(busy).toContainEqual({ start: madrid(29, 0), end: madrid(30, 0) })
    expect(busy).toContainEqual({ start: madrid(28, 12), end: madrid(28, 12, 30) })
    expect(busy).not.toContainEqual({ start: madrid(27, 9), end: madrid(27, 9, 30) })
  })

  it('a calendar that cannot be read is a fault; what was read stays; a good read recovers', async () => {
    const { said, health } = healthLog()
    const missing = reader(repCalendar.collection.replace('/trabajo/', '/no-existe/'), health)
    await missing.start()
    await missing.stop()
    expect(missing.cached('ana@gaspre.mx')).toBeNull()
    expect(said).toEqual(['fault: HTTP 404'])
    await expect(missing.fresh('ana@gaspre.mx', 60_000)).rejects.toThrow('HTTP 404')

    const down = reader('http://127.0.0.1:9/ana/', health)
    await down.start()
    await down.stop()
    expect(said.at(-1)).toMatch(/^fault: cannot reach the calendar's server/)
    // No address, user or password in what is told.
    expect(said.join('\n')).not.toMatch(/127\.0\.0\.1|clave/)
  })

  it('before a booking, a copy older than a minute is read again', async () => {
    let now = FRIDAY_EVENING
    const { health } = healthLog()
    const calendar = new CalendarReader(
      [{ rep: 'ana@gaspre.mx', address: repCalendar.collection, timeZone: REP_ZONE }],
      { health, now: () => now },
    )
    await calendar.start()
    await calendar.stop()
    const first = calendar.cached('ana@gaspre.mx')!
    now += 30_000
    expect(await calendar.fresh('ana@gaspre.mx', 60_000)).toBe(first)
    now += 60_000
    const again = await calendar.fresh('ana@gaspre.mx', 60_000)
    expect(again.readAt).toBe(now)
    expect(again.busy).toEqual(first.busy)
  })
})
