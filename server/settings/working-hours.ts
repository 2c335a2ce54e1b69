// The sales team's working hours (LEADS_WORKING_HOURS, in LEADS_TIME_ZONE), as the team writes
// them: `lun-vie 09:00-19:00; sáb 10:00-14:00`. Days are lun mar mié jue vie sáb dom, a range
// (`lun-vie`) or a list (`lun,mié,vie`), then the hours; several such parts joined by `;`. The
// WhatsApp escalation clock counts only these minutes: a request that arrives on Saturday night
// is still sent at once, but its rep has until a quarter past nine on Monday to read it.

/** Each day's open spans, in minutes from midnight; index 0 is Sunday, as Date.getUTCDay(). */
export type WorkingHours = readonly (readonly [number, number][])[]

const DAYS = ['dom', 'lun', 'mar', 'mie', 'jue', 'vie', 'sab'] as const

/** `mié` and `mie`, `sáb` and `sab`, in any case. */
const dayIndex = (word: string): number =>
  DAYS.indexOf(word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '') as (typeof DAYS)[number])

const minutesOf = (time: string): number | null => {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time)
  if (match === null) return null
  const hours = Number(match[1])
  const minutes = Number(match[2])
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return null
  return hours * 60 + minutes
}

/** The days a part names, Monday-first ranges wrapping over Sunday (`vie-lun`). */
function daysOf(text: string): number[] | null {
  const days: number[] = []
  for (const item of text.split(',')) {
    const [from = '', to, ...rest] = item.trim().split('-')
    if (rest.length > 0) return null
    const first = dayIndex(from.trim())
    if (first === -1) return null
    if (to === undefined) {
      days.push(first)
      continue
    }
    const last = dayIndex(to.trim())
    if (last === -1) return null
    for (let day = first; ; day = (day + 1) % 7) {
      days.push(day)
      if (day === last) break
    }
  }
  return days
}

/** The hours a text names, or null when it is not of that form. */
export function parseWorkingHours(text: string): WorkingHours | null {
  const week: [number, number][][] = Array.from({ length: 7 }, () => [])
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
  if (parts.length === 0) return null
  for (const part of parts) {
    const match = /^(.+?)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})$/u.exec(part)
    if (match === null) return null
    const days = daysOf(match[1]!)
    const open = minutesOf(match[2]!)
    const close = minutesOf(match[3]!)
    if (days === null || open === null || close === null || close <= open) return null
    for (const day of days) week[day]!.push([open, close])
  }
  for (const day of week) day.sort((a, b) => a[0] - b[0])
  return week
}

/** Whether the text names a time zone this Node knows (IANA, as `America/Mexico_City`). */
export const isTimeZone = (text: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: text })
    return true
  } catch {
    return false
  }
}

/** The wall-clock date and time of an instant in a time zone. */
export function wallClockOf(at: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at))
  const part = (type: string) => Number(parts.find((each) => each.type === type)?.value ?? 0)
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  }
}

/** The zone's offset from UTC at an instant, in ms. */
export function zoneOffsetMs(at: number, timeZone: string): number {
  const wall = wallClockOf(at, timeZone)
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
  return asUtc - (at - (at % 1000))
}

/** The instant a wall-clock time of a day has in a time zone (the later one, across a change). */
export function instantOf(
  year: number,
  month: number,
  day: number,
  minutes: number,
  timeZone: string,
) {
  const guess = Date.UTC(year, month - 1, day, 0, minutes)
  const first = guess - zoneOffsetMs(guess, timeZone)
  return guess - zoneOffsetMs(first, timeZone)
}

/**
 * The instant by which `minutes` of working time have passed since `from`: counted only within
 * the working hours, in `timeZone`. A year without a working minute never comes: Infinity.
 */
export function afterWorkingMinutes(
  from: number,
  minutes: number,
  hours: WorkingHours,
  timeZone: string,
): number {
  let left = minutes * 60_000
  const start = wallClockOf(from, timeZone)
  for (let offset = 0; offset <= 370; offset++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset))
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
    for (const [open, close] of hours[date.getUTCDay()] ?? []) {
      const opens = Math.max(instantOf(year, month, day, open, timeZone), from)
      const closes = instantOf(year, month, day, close, timeZone)
      if (closes <= opens) continue
      if (left <= closes - opens) return opens + left
      left -= closes - opens
    }
  }
  return Infinity
}

/**
 * Whether an instant falls within the working hours.
 * @internal its tests use it too
 */
export function isWorkingTime(at: number, hours: WorkingHours, timeZone: string): boolean {
  return afterWorkingMinutes(at, 0, hours, timeZone) === at
}
