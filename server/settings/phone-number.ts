// The visitor's phone number as the sales team dials it: one E.164 number (and an extension, if
// the visitor wrote one) or none, parsed with libphonenumber-js, so that the WhatsApp routing,
// the mail's tel: and wa.me links and the WhatsApp template all use the same number. A number
// written without a country code is read as Mexican first, then as a number of each country the
// WhatsApp routes name (612 345 678 is a Spanish mobile, not an Australian +61), then as a
// number of the other countries we sell to (Spain, Latin America), said to be assumed. What the
// visitor wrote is always kept beside it: a number the library cannot place is shown as written,
// never made into a link.
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max'

interface ParsedPhone {
  /** E.164: `+525512345678`. */
  e164: string
  /** The extension the visitor wrote (`ext 9`), kept out of the number itself. */
  ext: string | null
  /** The country calling code, digits alone: `52`. */
  callingCode: string
  /**
   * The country it was read as when the visitor wrote no country code and it is a number of
   * none of the regions asked (Mexico, the routes'), but of another country we sell to; null
   * when the number says its country, or is one of the regions asked.
   */
  assumed: CountryCode | null
  /** The country the number belongs to, when the library can tell (`MX`). */
  country: CountryCode | null
}

/**
 * The countries GASPRE sells to besides Mexico ("México, España y Latinoamérica", content/
 * inicio.yml), in the order a number without a country code is tried in them after Mexico and
 * the routes' countries: Spain first, then Latin America. A number of one of them is never
 * called invalid, whichever countries the WhatsApp routes name.
 */
const SALES_REGIONS: readonly CountryCode[] = [
  'ES',
  ...([
    'AR',
    'BO',
    'BR',
    'CL',
    'CO',
    'CR',
    'CU',
    'DO',
    'EC',
    'GT',
    'HN',
    'NI',
    'PA',
    'PE',
  ] as const),
  ...(['PR', 'PY', 'SV', 'UY', 'VE'] as const),
]

/** The first region of each calling code: any of them gives the same E.164 number. */
const regionOfCallingCode = (code: string): CountryCode | undefined =>
  getCountries().find((region) => getCountryCallingCode(region) === code)

/**
 * The regions a number without a country code is tried in: Mexico first, then one region for
 * each calling code the routes name (`52`, `34`, …).
 */
export function phoneRegions(callingCodes: readonly string[] = []): CountryCode[] {
  const regions: CountryCode[] = ['MX']
  for (const code of callingCodes) {
    const region = regionOfCallingCode(code)
    if (region !== undefined && !regions.includes(region)) regions.push(region)
  }
  return regions
}

const parsed = (number: PhoneNumber, assumed: CountryCode | null = null): ParsedPhone => ({
  e164: number.number,
  ext: number.ext ?? null,
  callingCode: number.countryCallingCode,
  assumed,
  country: number.country ?? null,
})

/**
 * A Mexican mobile written as it was before 2019 (`+52 1 55 …`, `044 55 …`): the same number
 * without the `1` or the `044`/`045`, which no longer dial.
 */
function mexicanWithoutOldPrefix(number: PhoneNumber): PhoneNumber | undefined {
  if (number.countryCallingCode !== '52') return undefined
  const national = number.nationalNumber
  const rest = /^1(\d{10})$/.exec(national)?.[1] ?? /^04[45](\d{10})$/.exec(national)?.[1]
  if (rest === undefined) return undefined
  const again = parsePhoneNumberFromString(`+52${rest}`)
  if (again === undefined || !again.isValid()) return undefined
  if (number.ext !== undefined) again.setExt(number.ext)
  return again
}

function validNumber(number: PhoneNumber | undefined): PhoneNumber | undefined {
  if (number === undefined) return undefined
  return number.isValid() ? number : mexicanWithoutOldPrefix(number)
}

/**
 * The number a person wrote, as E.164 (and its extension), or null when it is no phone number
 * of any region: too long, too short, or not a number of its country.
 */
export function parsePhone(
  written: string,
  regions: readonly CountryCode[] = ['MX'],
): ParsedPhone | null {
  const text = written.trim()
  if (text === '' || text.length > 60) return null
  // `00` is the international prefix of Mexico, Spain and most of Latin America.
  const international = /^00\s*(?=\d)/.test(text) ? `+${text.replace(/^00\s*/, '')}` : text
  if (international.startsWith('+')) {
    const number = validNumber(parsePhoneNumberFromString(international))
    return number === undefined ? null : parsed(number)
  }
  for (const region of regions) {
    const number = validNumber(parsePhoneNumberFromString(text, region))
    if (number !== undefined) return parsed(number)
  }
  for (const region of SALES_REGIONS) {
    if (regions.includes(region)) continue
    const number = validNumber(parsePhoneNumberFromString(text, region))
    if (number !== undefined) return parsed(number, region)
  }
  return null
}

const COUNTRY_NAMES = new Intl.DisplayNames(['es'], { type: 'region' })

/** The links to answer at once: a call (RFC 3966, the extension apart) and WhatsApp. */
export function phoneLinks(phone: ParsedPhone): { tel: string; whatsApp: string } {
  const digits = phone.e164.slice(1)
  return {
    tel: `tel:${phone.e164}${phone.ext !== null ? `;ext=${phone.ext}` : ''}`,
    whatsApp: `https://wa.me/${digits}`,
  }
}

/**
 * The number for a person who reads it: what the visitor wrote, and beside it the E.164 number
 * (a phone makes it a link) with its extension when the writing differs; or what the visitor
 * wrote, said to be no number.
 */
export function phoneForPeople(written: string, phone: ParsedPhone | null): string {
  const text = written.trim()
  if (phone === null) return text === '' ? 'sin teléfono' : `${text} (no es un número válido)`
  const number = `${phone.e164}${phone.ext !== null ? ` ext. ${phone.ext}` : ''}`
  if (phone.assumed !== null) {
    // Read as a country the visitor did not name: said, so that nobody dials it unawares.
    return `${text} (sin código de país; si es de ${COUNTRY_NAMES.of(phone.assumed) ?? phone.assumed}, ${number})`
  }
  const sameDigits = `+${text.replace(/\D/g, '')}` === phone.e164 && text.startsWith('+')
  return sameDigits ? text : `${text} (${number})`
}
