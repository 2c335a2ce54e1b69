// The free times of a booking as the visitor reads them: grouped by day in their own time zone,
// with Spanish dates and hours, each carrying its start in RFC 3339 with that zone's offset at
// that instant (the value the booking address takes). Pure: the zone is passed in.

/** The site's language for dates and hours: Mexican Spanish, as the page is written in. */
const LOCALE = 'es-MX'

/** One free start as the picker offers it. */
interface TimeChoice {
  /** The start in RFC 3339 with the zone's offset, e.g. 2026-12-01T10:00:00-06:00. */
  readonly value: string
  /** The hour as a person reads it, e.g. '10:00 a.m.'. */
  readonly label: string
}

/** The free starts of one day in the visitor's zone. */
interface DayChoices {
  /** The day in the zone, as 2026-12-01: a stable key. */
  readonly day: string
  /** The date as a person reads it, e.g. 'martes 1 de diciembre'. */
  readonly label: string
  readonly times: readonly TimeChoice[]
}

const formatters = new Map<string, Intl.DateTimeFormat>()

/** One formatter per zone and style, made once: making one costs far more than using it. */
function formatter(
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`
  let made = formatters.get(key)
  if (made === undefined) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone })
    formatters.set(key, made)
  }
  return made
}

/** The wall clock in `timeZone` at `instant`, field by field. */
function wallClock(instant: Date, timeZone: string) {
  const parts = formatter('en-US', timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant)
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value)
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  }
}

const twoDigits = (value: number) => String(value).padStart(2, '0')

/** The zone's offset from UTC at `instant`, in whole minutes (east positive). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const clock = wallClock(instant, timeZone)
  const asUtc = Date.UTC(
    clock.year,
    clock.month - 1,
    clock.day,
    clock.hour,
    clock.minute,
    clock.second,
  )
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000)
}

/**
 * The instant in RFC 3339 with the zone's offset at that instant: 2026-12-01T10:00:00-06:00.
 * @internal its tests use it too
 */
export function withOffset(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone)
  const offset = offsetMinutes(instant, timeZone)
  const sign = offset < 0 ? '-' : '+'
  const hours = twoDigits(Math.floor(Math.abs(offset) / 60))
  const minutes = twoDigits(Math.abs(offset) % 60)
  return (
    `${clock.year}-${twoDigits(clock.month)}-${twoDigits(clock.day)}` +
    `T${twoDigits(clock.hour)}:${twoDigits(clock.minute)}:${twoDigits(clock.second)}` +
    `${sign}${hours}:${minutes}`
  )
}

/** The date as a person reads it in the zone: 'martes 1 de diciembre'. */
export function spanishDate(instant: Date, timeZone: string): string {
  // Weekday and date apart: the locale's own pattern puts a comma between them.
  const weekday = formatter(LOCALE, timeZone, { weekday: 'long' }).format(instant)
  const date = formatter(LOCALE, timeZone, { day: 'numeric', month: 'long' }).format(instant)
  return `${weekday} ${date}`
}

/** The hour as a person reads it in the zone: '10:00 a.m.'. */
export function spanishTime(instant: Date, timeZone: string): string {
  return formatter(LOCALE, timeZone, { hour: 'numeric', minute: '2-digit' }).format(instant)
}

/**
 * The zone's name, with its offset at `instant`: 'hora estándar central (GMT-6)'. The name alone
 * is ambiguous (there are several central times), the offset alone is hard to recognise.
 */
export function zoneName(instant: Date, timeZone: string): string {
  const nameOf = (style: 'long' | 'shortOffset') =>
    formatter(LOCALE, timeZone, { timeZoneName: style })
      .formatToParts(instant)
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  const name = nameOf('long')
  // A minus sign, not a hyphen: a line never breaks inside 'GMT−6'.
  const offset = nameOf('shortOffset').replace('-', '\u2212')
  return name === '' || name === offset ? offset : `${name} (${offset})`
}

/**
 * The free starts (instants in RFC 3339, as the booking address gives them), grouped by day
 * in `timeZone` in the order of time. A start that is not a date is left out.
 */
export function groupByDay(starts: readonly string[], timeZone: string): DayChoices[] {
  const instants = starts
    .map((start) => new Date(start))
    .filter((instant) => !Number.isNaN(instant.getTime()))
    .sort((a, b) => a.getTime() - b.getTime())
  const days: { day: string; label: string; times: TimeChoice[] }[] = []
  for (const instant of instants) {
    const value = withOffset(instant, timeZone)
    const day = value.slice(0, 10)
    let current = days.at(-1)
    if (current?.day !== day) {
      current = { day, label: spanishDate(instant, timeZone), times: [] }
      days.push(current)
    }
    current.times.push({ value, label: spanishTime(instant, timeZone) })
  }
  return days
}
