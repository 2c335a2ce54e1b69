// LEADS_WHATSAPP_ROUTES: which sales reps hear of a request on WhatsApp, by the country of the
// visitor's phone: `+52=+5215511111111,+5215522222222;+34=+34600111222;*=+5215533333333`. Each
// request goes to one rep of its territory, in turn (the turn is kept in the store, see
// whatsapp-store.ts), or to the default (`*`) when its country has no route or its phone is no
// number. If nobody reads it, it goes on to the territory's next rep, each once; a territory of
// one rep goes on to the default's reps.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max'
import { parsePhone } from './phone-number.js'

export interface WhatsAppRoutes {
  /** Calling code (`52`) → the reps' numbers, `+` and digits, as configured. */
  territories: ReadonlyMap<string, readonly string[]>
  /** The default's reps (`*`). */
  fallback: readonly string[]
}

export const CALLING_CODES = new Set(getCountries().map((region) => getCountryCallingCode(region)))

/** A rep's number: `+`, the country code and the number (spaces and dashes allowed). */
export function repNumber(text: string): string | null {
  const compact = text.replace(/[\s-]/g, '')
  if (!/^\+\d{8,15}$/.test(compact)) return null
  // The number WhatsApp knows the rep by is kept as written: a Mexican mobile is often
  // registered with the old `1` (+521…), which libphonenumber reads as the same number.
  return parsePhone(compact) === null ? null : compact
}

/**
 * The routes a text names; throws an Error saying which part is wrong (config.ts makes it the
 * start's one line, naming the variable).
 */
export function parseWhatsAppRoutes(text: string): WhatsAppRoutes {
  const territories = new Map<string, string[]>()
  let fallback: string[] | null = null
  for (const part of text
    .split(';')
    .map((each) => each.trim())
    .filter((each) => each !== '')) {
    const [key = '', list, ...rest] = part.split('=').map((each) => each.trim())
    if (list === undefined || rest.length > 0) {
      throw new Error(`"${part}" is not of the form +52=+521…,+521… (or *=+521… for the default)`)
    }
    const code = /^\+(\d{1,3})$/.exec(key)?.[1]
    if (key !== '*' && (code === undefined || !CALLING_CODES.has(code))) {
      throw new Error(`"${key}" is not a country calling code such as +52 or +34, nor *`)
    }
    const reps: string[] = []
    for (const entry of list.split(',').map((each) => each.trim())) {
      const rep = repNumber(entry)
      if (rep === null) {
        throw new Error(
          `"${entry}" (for ${key}) is not a phone number with its country code, such as +5215511111111`,
        )
      }
      if (!reps.includes(rep)) reps.push(rep)
    }
    if (key === '*') {
      if (fallback !== null) throw new Error('names the default (*) twice')
      fallback = reps
    } else {
      if (territories.has(code!)) throw new Error(`names ${key} twice`)
      territories.set(code!, reps)
    }
  }
  if (fallback === null) {
    throw new Error(
      'has no default (*=+521…): the reps who take the requests of every other country',
    )
  }
  return { territories, fallback }
}

/**
 * The reps of a request whose phone has this calling code (null: no number), in the order they
 * are tried, starting with the `turn`-th rep of its territory.
 */
export function repsInTurn(
  routes: WhatsAppRoutes,
  callingCode: string | null,
  turn: number,
): { territory: string; reps: string[] } {
  const own = callingCode === null ? undefined : routes.territories.get(callingCode)
  const list = own ?? routes.fallback
  const start = turn % list.length
  const reps = [...list.slice(start), ...list.slice(0, start)]
  // A territory of one rep has nobody to go on to: the default's reps take it.
  if (own !== undefined && own.length === 1) {
    reps.push(...routes.fallback.filter((rep) => !reps.includes(rep)))
  }
  return { territory: own !== undefined ? `+${callingCode}` : '*', reps }
}

/** The territories' calling codes, for reading a number written without one. */
export const routeCallingCodes = (routes: WhatsAppRoutes): string[] => [
  ...routes.territories.keys(),
]
