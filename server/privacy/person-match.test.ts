// A person as the sales team types them: every way of writing one number or address finds
// the same requests, and no other person's.
import { describe, expect, it } from 'vitest'
import { personOf, sentBy } from './person-match.js'

const byPhone = (phone: string) => ({ user_phone: phone, user_email: 'x@y.mx' })
const byEmail = (email: string) => ({ user_phone: '1', user_email: email })

const matches = (query: string, params: Record<string, string>): boolean => {
  const person = personOf(query)
  if (person === null) throw new Error(`${query} is not a person`)
  return sentBy(person, params)
}

describe('a person by phone', () => {
  const ANA = [
    '+52 55 1234 5678',
    '55 1234 5678',
    '5512345678',
    '+52 1 55 1234 5678',
    '52 1 55 1234 5678',
    '52 55 1234 5678',
    '0052 55 1234 5678',
    '044 55 1234 5678',
    '01 55 1234 5678',
    '(55) 1234-5678',
    ' 55.1234.5678 ',
  ]

  it.each(ANA)('%s is the same person as every other way of writing it', (query) => {
    for (const stored of ANA) expect(matches(query, byPhone(stored)), stored).toBe(true)
  })

  it.each(['55 1234 5679', '+34 55 1234 5678', '+1 55 1234 5678', '1234 5678', '', 'ninguno'])(
    'never %s',
    (stored) => {
      for (const query of ANA) expect(matches(query, byPhone(stored)), query).toBe(false)
    },
  )

  it('a Spanish number with or without its code; a country this table does not know', () => {
    for (const query of ['+34 612 345 678', '0034612345678', '612 345 678', '34 612 345 678']) {
      expect(matches(query, byPhone('+34 612345678'))).toBe(true)
      expect(matches(query, byPhone('612345678'))).toBe(true)
      expect(matches(query, byPhone('+34 612 345 679'))).toBe(false)
    }
    // Guatemala's numbers have eight digits.
    expect(matches('+502 2345 6789', byPhone('2345 6789'))).toBe(true)
    expect(matches('2345 6789', byPhone('00502 23456789'))).toBe(true)
    expect(matches('+502 2345 6789', byPhone('+503 2345 6789'))).toBe(false)
    expect(matches('+57 300 123 4567', byPhone('0057 3001234567'))).toBe(true)
    expect(matches('+57 300 123 4567', byPhone('+58 300 123 4567'))).toBe(false)
    // Ten digits alone are Mexican, as in the mails' call links.
    expect(matches('+57 300 123 4567', byPhone('300 123 4567'))).toBe(false)
    expect(matches('+52 300 123 4567', byPhone('300 123 4567'))).toBe(true)
  })
})

describe('a person by e-mail address', () => {
  it('in any case and with stray spaces, but only that address', () => {
    for (const query of ['ana@gasolinera.mx', ' Ana@Gasolinera.MX ', 'ANA@GASOLINERA.MX']) {
      expect(matches(query, byEmail('ana@gasolinera.mx'))).toBe(true)
      expect(matches(query, byEmail(' Ana@gasolinera.mx'))).toBe(true)
      expect(matches(query, byEmail('juana@gasolinera.mx'))).toBe(false)
      expect(matches(query, byEmail('ana@gasolinera.mx.example'))).toBe(false)
      expect(matches(query, byEmail(''))).toBe(false)
    }
  })

  it('text that is neither an address nor a number names nobody', () => {
    for (const text of ['Ana López', '12-34', '@', 'a@b@c', '00000000-0000-4000-8000-000000000001'])
      expect(personOf(text), text).toBeNull()
  })
})
