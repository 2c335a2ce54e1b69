// Who a person is, as the sales team types it for an access or erasure request: an e-mail
// address (in any case, with stray spaces) or a phone number as a person writes it. A Mexican
// number is the same person as `+52 55 1234 5678`, `52 1 55 1234 5678`, `044 55 1234 5678`,
// `55 1234 5678` or `5512345678`; a Spanish one as `+34 612 345 678`, `0034…` or `612345678`.
// Two numbers match when their national numbers are equal and their countries do not differ
// (ten digits alone are Mexican; a shorter number written without a code takes the other's);
// nothing looser, so `55 1234 5679`, `+1 55 1234 5678` or `juana@…` never match
// `55 1234 5678` or `ana@…`.

/** A phone number as dialled: its country code when written (null when not) and the rest. */
interface Phone {
  /** '52', '34', '1', '?' for another country (then `national` holds every digit), or null. */
  country: string | null
  national: string
}

export type Person =
  { kind: 'email'; email: string; text: string } | { kind: 'phone'; phone: Phone; text: string }

/** Country codes whose numbers a visitor of this site writes, with their national length. */
const COUNTRIES: readonly { code: string; length: number }[] = [
  { code: '52', length: 10 },
  { code: '34', length: 9 },
  { code: '1', length: 10 },
]

const PHONE_TEXT = /^[+\d\s().\-/]+$/

/** An e-mail address as compared: lower case, without spaces. */
const normalEmail = (text: string): string =>
  text.normalize('NFC').replace(/\s+/g, '').toLowerCase()

/** The national number of a Mexican number written with `+52 1` (mobiles before 2019). */
const mexicanNational = (rest: string): string =>
  rest.length === 11 && rest.startsWith('1') ? rest.slice(1) : rest

/** How a phone number is dialled; null for text that is not one. */
function parsePhone(text: string): Phone | null {
  const trimmed = text.trim()
  if (!PHONE_TEXT.test(trimmed)) return null
  let digits = trimmed.replace(/\D/g, '')
  if (digits.length < 7 || digits.length > 17) return null
  let international = trimmed.startsWith('+')
  if (!international && digits.startsWith('00')) {
    international = true
    digits = digits.slice(2)
  }
  if (international) {
    for (const { code } of COUNTRIES) {
      if (!digits.startsWith(code)) continue
      const rest = digits.slice(code.length)
      return { country: code, national: code === '52' ? mexicanNational(rest) : rest }
    }
    return { country: '?', national: digits }
  }
  // Written without + or 00: a country code is taken as one only where the length says so.
  for (const { code, length } of COUNTRIES) {
    if (!digits.startsWith(code)) continue
    const rest = digits.slice(code.length)
    if (rest.length === length) return { country: code, national: rest }
    if (code === '52' && rest.length === 11 && rest.startsWith('1'))
      return { country: code, national: rest.slice(1) }
  }
  // Mexico's former trunk prefixes: 01 for long distance, 044 and 045 for mobiles.
  if (digits.length === 12 && digits.startsWith('01')) digits = digits.slice(2)
  else if (digits.length === 13 && /^04[45]/.test(digits)) digits = digits.slice(3)
  // Ten digits alone are a Mexican number, as the mails' call links take them (lead-mail.ts).
  return { country: digits.length === 10 ? '52' : null, national: digits }
}

function samePhone(a: Phone, b: Phone): boolean {
  if (a.country === '?' || b.country === '?') {
    // A country this table does not know: every digit written, or the national number alone
    // with at most a country code of three digits before it.
    const [known, other] = a.country === '?' ? [a, b] : [b, a]
    if (other.country === '?') return known.national === other.national
    if (other.country !== null) return known.national === other.country + other.national
    const extra = known.national.length - other.national.length
    return known.national.endsWith(other.national) && extra >= 1 && extra <= 3
  }
  if (a.country !== null && b.country !== null && a.country !== b.country) return false
  return a.national === b.national
}

/** Who `text` names: an e-mail address, a phone number, or neither (null). */
export function personOf(text: string): Person | null {
  if (text.includes('@')) {
    const email = normalEmail(text)
    return /^[^@]+@[^@]+$/.test(email) ? { kind: 'email', email, text: text.trim() } : null
  }
  const phone = parsePhone(text)
  return phone === null ? null : { kind: 'phone', phone, text: text.trim() }
}

/** Whether a request's params were sent by `person`. */
export function sentBy(person: Person, params: Readonly<Record<string, string>>): boolean {
  if (person.kind === 'email') return normalEmail(params.user_email ?? '') === person.email
  const phone = parsePhone(params.user_phone ?? '')
  return phone !== null && samePhone(person.phone, phone)
}
