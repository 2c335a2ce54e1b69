// LEADS_WORKING_HOURS as the team writes it, and the escalation clock that counts only those
// minutes, in the team's time zone.
import { describe, expect, it } from 'vitest'
import { afterWorkingMinutes, isWorkingTime, parseWorkingHours } from './working-hours.js'

const MEXICO = 'America/Mexico_City'
const at = (iso: string) => Date.parse(iso)

describe('working hours', () => {
  it('reads ranges and lists of days, accented or not, several parts joined by ;', () => {
    const hours = parseWorkingHours('lun-vie 09:00-19:00; sáb 10:00-14:00')!
    expect(hours[1]).toEqual([[540, 1140]])
    expect(hours[5]).toEqual([[540, 1140]])
    expect(hours[6]).toEqual([[600, 840]])
    expect(hours[0]).toEqual([])
    expect(parseWorkingHours('lun,mie,VIE 08:30-13:00')![3]).toEqual([[510, 780]])
    expect(parseWorkingHours('vie-lun 00:00-24:00')!.map((day) => day.length)).toEqual([
      1, 1, 0, 0, 0, 1, 1,
    ])
    for (const bad of [
      '',
      'lunes 09:00-19:00',
      'lun-vie 19:00-09:00',
      'lun-vie 9-19',
      'lun 25:00-26:00',
    ]) {
      expect(parseWorkingHours(bad)).toBeNull()
    }
  })

  it('counts only working minutes: Friday evening to Monday morning, and a Saturday', () => {
    const hours = parseWorkingHours('lun-vie 09:00-19:00; sáb 10:00-14:00')!
    // Friday 18:50 in Mexico City (UTC-6): ten minutes on Friday, five on Saturday at ten.
    expect(afterWorkingMinutes(at('2026-11-28T00:50:00Z'), 15, hours, MEXICO)).toBe(
      at('2026-11-28T16:05:00Z'),
    )
    // Saturday 15:00: Monday 09:15.
    expect(afterWorkingMinutes(at('2026-11-28T21:00:00Z'), 15, hours, MEXICO)).toBe(
      at('2026-11-30T15:15:00Z'),
    )
    // Within hours, the minutes are plain minutes.
    expect(afterWorkingMinutes(at('2026-11-25T17:00:00Z'), 15, hours, MEXICO)).toBe(
      at('2026-11-25T17:15:00Z'),
    )
    expect(isWorkingTime(at('2026-11-28T17:00:00Z'), hours, MEXICO)).toBe(true)
    expect(isWorkingTime(at('2026-11-29T17:00:00Z'), hours, MEXICO)).toBe(false)
  })

  it('keeps to the wall clock across a daylight-saving change', () => {
    const hours = parseWorkingHours('lun-vie 09:00-17:00')!
    // New York moves to EDT on Sunday 8 March 2026: Friday 16:55 EST + 15 → Monday 09:10 EDT.
    expect(afterWorkingMinutes(at('2026-03-06T21:55:00Z'), 15, hours, 'America/New_York')).toBe(
      at('2026-03-09T13:10:00Z'),
    )
  })
})
