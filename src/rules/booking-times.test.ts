import { describe, expect, it } from 'vitest'
import { groupByDay, spanishDate, spanishTime, withOffset, zoneName } from './booking-times'

const at = (instant: string) => new Date(instant)

describe('a start in RFC 3339 with the offset of the zone shown', () => {
  it.each([
    ['2026-12-01T16:00:00Z', 'America/Mexico_City', '2026-12-01T10:00:00-06:00'],
    ['2026-12-01T16:00:00Z', 'Europe/Madrid', '2026-12-01T17:00:00+01:00'],
    ['2026-07-01T16:00:00Z', 'Europe/Madrid', '2026-07-01T18:00:00+02:00'],
    ['2026-12-01T16:00:00Z', 'America/Bogota', '2026-12-01T11:00:00-05:00'],
    ['2026-12-01T16:00:00Z', 'UTC', '2026-12-01T16:00:00+00:00'],
    // Offsets that are not whole hours, on both sides of UTC.
    ['2026-12-01T04:15:00Z', 'Asia/Kathmandu', '2026-12-01T10:00:00+05:45'],
    ['2026-12-01T13:30:00Z', 'America/St_Johns', '2026-12-01T10:00:00-03:30'],
    // The day before in the zone.
    ['2026-12-01T03:00:00Z', 'America/Mexico_City', '2026-11-30T21:00:00-06:00'],
  ])('%s in %s is %s', (instant, zone, expected) => {
    expect(withOffset(at(instant), zone)).toBe(expected)
    expect(Date.parse(expected)).toBe(Date.parse(instant))
  })

  it('follows a daylight-saving change in Madrid within one day, while Mexico City keeps -06:00', () => {
    // Madrid leaves summer time on Sunday 25 October 2026 at 03:00 (to 02:00): 02:30 happens twice.
    const beforeChange = at('2026-10-25T00:30:00Z')
    const afterChange = at('2026-10-25T01:30:00Z')
    expect(withOffset(beforeChange, 'Europe/Madrid')).toBe('2026-10-25T02:30:00+02:00')
    expect(withOffset(afterChange, 'Europe/Madrid')).toBe('2026-10-25T02:30:00+01:00')
    // Mexico City has kept standard time all year since the end of 2022.
    expect(withOffset(beforeChange, 'America/Mexico_City')).toBe('2026-10-24T18:30:00-06:00')
    expect(withOffset(afterChange, 'America/Mexico_City')).toBe('2026-10-24T19:30:00-06:00')
    // Spring: 02:00 to 03:00 on 29 March 2026 never happens in Madrid.
    expect(withOffset(at('2026-03-29T00:30:00Z'), 'Europe/Madrid')).toBe(
      '2026-03-29T01:30:00+01:00',
    )
    expect(withOffset(at('2026-03-29T01:00:00Z'), 'Europe/Madrid')).toBe(
      '2026-03-29T03:00:00+02:00',
    )
  })

  it("follows Mexico City's last daylight-saving change, on 30 October 2022", () => {
    expect(withOffset(at('2022-10-30T06:30:00Z'), 'America/Mexico_City')).toBe(
      '2022-10-30T01:30:00-05:00',
    )
    expect(withOffset(at('2022-10-30T07:30:00Z'), 'America/Mexico_City')).toBe(
      '2022-10-30T01:30:00-06:00',
    )
  })

  it('names the same instant every 15 minutes of a year, in every zone our visitors are in', () => {
    const zones = ['America/Mexico_City', 'Europe/Madrid', 'America/Santiago', 'America/Tijuana']
    for (let time = Date.UTC(2026, 0, 1); time < Date.UTC(2027, 0, 1); time += 15 * 60_000 * 97)
      for (const zone of zones) expect(Date.parse(withOffset(new Date(time), zone))).toBe(time)
  })
})

describe('dates and hours in Spanish', () => {
  it('writes the day as "martes 1 de diciembre", in the zone', () => {
    expect(spanishDate(at('2026-12-01T16:00:00Z'), 'America/Mexico_City')).toBe(
      'martes 1 de diciembre',
    )
    expect(spanishDate(at('2026-12-02T03:00:00Z'), 'America/Mexico_City')).toBe(
      'martes 1 de diciembre',
    )
    expect(spanishDate(at('2026-12-02T03:00:00Z'), 'Europe/Madrid')).toBe(
      'miércoles 2 de diciembre',
    )
  })

  it('writes the hour as it is read in Mexico', () => {
    expect(spanishTime(at('2026-12-01T16:00:00Z'), 'America/Mexico_City')).toMatch(
      /^10:00\sa\.\s?m\.$/,
    )
    expect(spanishTime(at('2026-12-01T19:30:00Z'), 'America/Mexico_City')).toMatch(
      /^1:30\sp\.\s?m\.$/,
    )
  })

  it('names the zone with its offset at that instant', () => {
    expect(zoneName(at('2026-12-01T16:00:00Z'), 'America/Mexico_City')).toMatch(/ \(GMT−6\)$/)
    expect(zoneName(at('2026-12-01T16:00:00Z'), 'Europe/Madrid')).toMatch(/Europa .*\(GMT\+1\)$/)
    expect(zoneName(at('2026-07-01T16:00:00Z'), 'Europe/Madrid')).toMatch(/\(GMT\+2\)$/)
  })
})

describe('the free times grouped by day in the visitor’s zone', () => {
  const FREE = [
    '2026-11-30T16:00:00Z',
    '2026-11-30T16:30:00Z',
    '2026-12-01T15:00:00Z',
    '2026-12-01T23:30:00Z',
    '2026-12-02T16:00:00Z',
  ]

  it('in Mexico City: one group a day, in order, each time with its value and hour', () => {
    const days = groupByDay(FREE, 'America/Mexico_City')
    expect(days.map((day) => day.label)).toEqual([
      'lunes 30 de noviembre',
      'martes 1 de diciembre',
      'miércoles 2 de diciembre',
    ])
    expect(days.map((day) => day.times.map((time) => time.value))).toEqual([
      ['2026-11-30T10:00:00-06:00', '2026-11-30T10:30:00-06:00'],
      ['2026-12-01T09:00:00-06:00', '2026-12-01T17:30:00-06:00'],
      ['2026-12-02T10:00:00-06:00'],
    ])
    expect(days[0]!.times[0]!.label).toMatch(/^10:00/)
  })

  it('in Madrid a late start of one day in Mexico is the next day', () => {
    const days = groupByDay(FREE, 'Europe/Madrid')
    expect(days.map((day) => [day.label, day.times.map((time) => time.value)])).toEqual([
      ['lunes 30 de noviembre', ['2026-11-30T17:00:00+01:00', '2026-11-30T17:30:00+01:00']],
      ['martes 1 de diciembre', ['2026-12-01T16:00:00+01:00']],
      ['miércoles 2 de diciembre', ['2026-12-02T00:30:00+01:00', '2026-12-02T17:00:00+01:00']],
    ])
  })

  it('keeps a daylight-saving day whole: the same hour twice, each with its own offset', () => {
    const days = groupByDay(['2026-10-25T01:30:00Z', '2026-10-25T00:30:00Z'], 'Europe/Madrid')
    expect(days).toHaveLength(1)
    expect(days[0]!.label).toBe('domingo 25 de octubre')
    expect(days[0]!.times.map((time) => time.value)).toEqual([
      '2026-10-25T02:30:00+02:00',
      '2026-10-25T02:30:00+01:00',
    ])
  })

  it('sorts the starts and leaves out what is not a date', () => {
    const days = groupByDay(['2026-12-01T17:00:00Z', 'mañana', '2026-12-01T16:00:00Z'], 'UTC')
    expect(days.flatMap((day) => day.times.map((time) => time.value))).toEqual([
      '2026-12-01T16:00:00+00:00',
      '2026-12-01T17:00:00+00:00',
    ])
  })

  it('has no day when there is no free time', () => {
    expect(groupByDay([], 'America/Mexico_City')).toEqual([])
  })
})
