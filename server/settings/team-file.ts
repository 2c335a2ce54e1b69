// LEADS_TEAM_FILE: the sales team in one YAML file that the sales manager keeps (docs/sales-team.md
// says how, in Spanish): each rep's name, e-mail, WhatsApp, the countries they take, their
// calendar, their video room, hours and time zone. Read and checked once, at start, with the
// other settings (config.ts); a wrong file stops the start with one line that names the rep and
// the key. The WhatsApp routing reads its reps from it, and the booking (server/booking/) the
// rep's calendar, room and hours.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { CALLING_CODES, repNumber, type WhatsAppRoutes } from './whatsapp-routes.js'
import { isTimeZone, parseWorkingHours, type WorkingHours } from './working-hours.js'

export interface TeamRep {
  name: string
  /** Their address: the invitation's ORGANIZER, and how the store names the rep. */
  email: string
  /** E.164, as WhatsApp knows the rep; null: no WhatsApp message goes to them. */
  whatsapp: string | null
  /** Calling codes without `+` (`52`), or `*` for every country no rep names. */
  countries: readonly string[]
  /** Their calendar: an iCalendar address (GET) or a CalDAV collection (ends in `/`). */
  calendar: string | null
  /** Their video room, the invitation's LOCATION and URL. */
  meetingUrl: string | null
  /** When they take meetings, in `timeZone` (LEADS_WORKING_HOURS unless the file says). */
  hours: WorkingHours
  timeZone: string
}

export interface Team {
  reps: readonly TeamRep[]
  /** How long a booked meeting lasts. */
  meetingMinutes: number
}

/** A wrong file: config.ts prefixes the variable and the path. */
class TeamFileError extends Error {}

const MAIL_ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/
const REP_KEYS = new Set([
  'name',
  'email',
  'whatsapp',
  'countries',
  'calendar',
  'meeting_url',
  'hours',
  'time_zone',
])
const TOP_KEYS = new Set(['time_zone', 'meeting_minutes', 'reps'])

function webAddress(text: string): URL | null {
  try {
    // webcal:// is how Google, Apple and Outlook hand out a subscription: HTTPS underneath.
    const url = new URL(text.replace(/^webcal:\/\//i, 'https://'))
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== ''
      ? url
      : null
  } catch {
    return null
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

interface Defaults {
  hours: WorkingHours
  timeZone: string
}

function readRep(entry: unknown, index: number, fileZone: string, defaults: Defaults): TeamRep {
  const named =
    isRecord(entry) && typeof entry.name === 'string' && entry.name.trim() !== ''
      ? ` (${entry.name.trim()})`
      : ''
  const wrong = (key: string, problem: string) =>
    new TeamFileError(`rep ${index + 1}${named}: ${key} ${problem}`)
  if (!isRecord(entry)) throw wrong('', 'is not a list of keys such as name:, email:, countries:')
  for (const key of Object.keys(entry)) {
    if (!REP_KEYS.has(key)) {
      throw wrong(key, `is not a key a rep takes (${[...REP_KEYS].join(', ')})`)
    }
  }
  const text = (key: string): string | null => {
    const value = entry[key]
    if (value === undefined || value === null) return null
    if (typeof value !== 'string' && typeof value !== 'number') throw wrong(key, 'must be text')
    const trimmed = String(value).trim()
    return trimmed === '' ? null : trimmed
  }

  const name = text('name')
  if (name === null) throw wrong('name', 'is missing: the name the visitor sees')
  if (name.length > 100 || /\p{Cc}/u.test(name)) {
    throw wrong('name', 'must be one line of at most 100 characters')
  }
  const email = text('email')
  if (email === null || !MAIL_ADDRESS.test(email)) {
    throw wrong('email', `must be an e-mail address such as ana@gaspre.mx, not "${email ?? ''}"`)
  }
  const whatsappText = text('whatsapp')
  const whatsapp = whatsappText === null ? null : repNumber(whatsappText)
  if (whatsappText !== null && whatsapp === null) {
    throw wrong(
      'whatsapp',
      `must be a phone number with its country code, such as "+5215511111111", not "${whatsappText}"`,
    )
  }

  const listed = entry.countries
  const countryTexts =
    typeof listed === 'string' ? [listed] : Array.isArray(listed) ? (listed as unknown[]) : null
  if (countryTexts === null || countryTexts.length === 0) {
    throw wrong('countries', 'is missing: a list of calling codes such as ["+52"], or ["*"]')
  }
  const countries: string[] = []
  for (const each of countryTexts) {
    const written = String(each).trim()
    const code = /^\+(\d{1,3})$/.exec(written)?.[1]
    if (written !== '*' && (code === undefined || !CALLING_CODES.has(code))) {
      throw wrong('countries', `"${written}" is not a calling code such as "+52" or "+34", nor "*"`)
    }
    countries.push(code ?? '*')
  }

  const calendarText = text('calendar')
  const calendar = calendarText === null ? null : webAddress(calendarText)
  if (calendarText !== null && calendar === null) {
    throw wrong('calendar', `must be an https:// or webcal:// address, not "${calendarText}"`)
  }
  const meetingText = text('meeting_url')
  const meeting = meetingText === null ? null : webAddress(meetingText)
  if (meetingText !== null && meeting === null) {
    throw wrong('meeting_url', `must be an https:// address, not "${meetingText}"`)
  }
  if (calendar !== null && meeting === null) {
    throw wrong(
      'meeting_url',
      'is missing: a rep with a calendar needs the room the invitation names',
    )
  }
  const hoursText = text('hours')
  const hours = hoursText === null ? defaults.hours : parseWorkingHours(hoursText)
  if (hours === null) {
    throw wrong('hours', `must be days and hours such as "lun-vie 09:00-18:00", not "${hoursText}"`)
  }
  const zoneText = text('time_zone')
  if (zoneText !== null && !isTimeZone(zoneText)) {
    throw wrong(
      'time_zone',
      `must be an IANA time zone such as America/Mexico_City, not "${zoneText}"`,
    )
  }
  return {
    name,
    email: email.toLowerCase(),
    whatsapp,
    countries,
    calendar: calendar?.href ?? null,
    meetingUrl: meeting?.href ?? null,
    hours,
    timeZone: zoneText ?? fileZone,
  }
}

/**
 * The team a YAML text describes; throws naming the rep and the key that is wrong.
 * @internal its tests use it too
 */
export function parseTeam(yamlText: string, defaults: Defaults): Team {
  let document: unknown
  try {
    document = parse(yamlText)
  } catch (error) {
    throw new TeamFileError(
      `is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : ''}`,
    )
  }
  if (!isRecord(document)) throw new TeamFileError('must hold reps: and a list of reps')
  for (const key of Object.keys(document)) {
    if (!TOP_KEYS.has(key)) {
      throw new TeamFileError(`${key} is not a key of the file (${[...TOP_KEYS].join(', ')})`)
    }
  }
  const zone = document.time_zone
  if (zone !== undefined && (typeof zone !== 'string' || !isTimeZone(zone))) {
    throw new TeamFileError(
      `time_zone must be an IANA time zone such as America/Mexico_City, not "${String(zone)}"`,
    )
  }
  const minutes = document.meeting_minutes ?? 30
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 10 || minutes > 240) {
    throw new TeamFileError(
      `meeting_minutes must be a whole number of minutes from 10 to 240, not "${String(minutes)}"`,
    )
  }
  const list = document.reps
  if (!Array.isArray(list) || list.length === 0) {
    throw new TeamFileError('reps must be a list of at least one rep')
  }
  const fileZone = typeof zone === 'string' ? zone : defaults.timeZone
  const reps = list.map((entry, index) => readRep(entry, index, fileZone, defaults))
  reps.forEach((rep, index) => {
    const first = reps.findIndex((other) => other.email === rep.email)
    if (first !== index) {
      throw new TeamFileError(
        `rep ${index + 1} (${rep.name}): email ${rep.email} is rep ${first + 1}'s too: each rep needs their own`,
      )
    }
  })
  return { reps, meetingMinutes: minutes }
}

/** Reads and checks the file; throws an Error whose message is the start's one line. */
export function readTeamFile(path: string, defaults: Defaults): Team {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new Error(`LEADS_TEAM_FILE ${path} cannot be read (${code})`)
  }
  try {
    return parseTeam(text, defaults)
  } catch (error) {
    if (error instanceof TeamFileError) throw new Error(`LEADS_TEAM_FILE ${path}: ${error.message}`)
    throw error
  }
}

/**
 * The WhatsApp routes the team makes: each rep with a number, in the file's order, in the
 * territories of their countries; those with `*` are the default. Throws without a default.
 */
export function teamWhatsAppRoutes(team: Team): WhatsAppRoutes {
  const territories = new Map<string, string[]>()
  const fallback: string[] = []
  for (const rep of team.reps) {
    if (rep.whatsapp === null) continue
    for (const code of rep.countries) {
      const list = code === '*' ? fallback : (territories.get(code) ?? [])
      if (!list.includes(rep.whatsapp)) list.push(rep.whatsapp)
      if (code !== '*') territories.set(code, list)
    }
  }
  if (fallback.length === 0) {
    throw new Error(
      'has no rep with whatsapp and countries ["*"]: the rep who takes the requests of every other country',
    )
  }
  return { territories, fallback }
}

/**
 * The reps of the territory a request falls in, in the file's order: those of its calling code
 * when any rep names it, else those of `*`. The same territories as the WhatsApp routes.
 */
export function territoryOf(
  team: Team,
  callingCode: string | null,
): { territory: string; reps: readonly TeamRep[] } {
  const own =
    callingCode === null ? [] : team.reps.filter((rep) => rep.countries.includes(callingCode))
  if (own.length > 0) return { territory: `+${callingCode}`, reps: own }
  return { territory: '*', reps: team.reps.filter((rep) => rep.countries.includes('*')) }
}
