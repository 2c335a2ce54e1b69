// Each odd phone a visitor writes gives one E.164 number, or none, everywhere it is used: the
// WhatsApp routing, the mail's tel: and wa.me links, and the WhatsApp template's parameter.
import { describe, expect, it } from 'vitest'
import { phoneLinks, parsePhone, phoneForPeople, phoneRegions } from './phone-number.js'
import { templateParameters } from '../channels/whatsapp/sender.js'
import { parseWhatsAppRoutes, repsInTurn, routeCallingCodes } from './whatsapp-routes.js'
import { leadMail } from '../channels/mail/lead-mail.js'
import { newRecord } from '../store/record.js'

const routes = parseWhatsAppRoutes(
  '+52=+5215511111111,+5215522222222;+34=+34600111222;*=+5215533333333',
)
const regions = phoneRegions(routeCallingCodes(routes))

/** Where each use of the number ends up, for one written phone. */
function everywhere(written: string) {
  const phone = parsePhone(written, regions)
  const callingCode =
    phone !== null && routes.territories.has(phone.callingCode) ? phone.callingCode : null
  const record = newRecord('s', 't', {
    user_name: 'Ana',
    user_email: 'ana@grupo.mx',
    user_phone: written,
    user_group: 'Grupo',
    contact_number: '7',
  })
  const mail = leadMail(record, 'America/Mexico_City', { regions })
  return {
    e164: phone === null ? null : phone.e164 + (phone.ext !== null ? ` ext ${phone.ext}` : ''),
    territory: repsInTurn(routes, callingCode, 0).territory,
    links: phone === null ? null : phoneLinks(phone),
    template: templateParameters(record, regions)[2],
    mailCalls: /Llamar: (\S+)/.exec(mail.text)?.[1] ?? null,
    mailWhatsApp: /WhatsApp: (\S+)/.exec(mail.text)?.[1] ?? null,
  }
}

describe('a phone as the visitor wrote it', () => {
  const THIRTY_DIGITS = '123456789012345678901234567890'
  it.each([
    [
      '612 345 678 is a Spanish mobile, not Australia',
      '612 345 678',
      {
        e164: '+34612345678',
        territory: '+34',
        links: { tel: 'tel:+34612345678', whatsApp: 'https://wa.me/34612345678' },
        template: '612 345 678 (+34612345678)',
        mailCalls: 'tel:+34612345678',
        mailWhatsApp: 'https://wa.me/34612345678',
      },
    ],
    [
      'an extension is dialled after the number, never as part of it',
      '+52 (55) 1234-5678 ext 9',
      {
        e164: '+525512345678 ext 9',
        territory: '+52',
        links: { tel: 'tel:+525512345678;ext=9', whatsApp: 'https://wa.me/525512345678' },
        template: '+52 (55) 1234-5678 ext 9 (+525512345678 ext. 9)',
        mailCalls: 'tel:+525512345678;ext=9',
        mailWhatsApp: 'https://wa.me/525512345678',
      },
    ],
    [
      'thirty digits are no number: no link, the default route, and the template says so',
      THIRTY_DIGITS,
      {
        e164: null,
        territory: '*',
        links: null,
        template: `${THIRTY_DIGITS} (no es un número válido)`,
        mailCalls: null,
        mailWhatsApp: null,
      },
    ],
  ] as const)('%s', (_, written, expected) => {
    expect(everywhere(written)).toEqual(expected)
  })

  it('0034 and 00 52 are international prefixes, not digits after a +', () => {
    expect(everywhere('0034 612 345 678')).toMatchObject({
      e164: '+34612345678',
      territory: '+34',
      mailCalls: 'tel:+34612345678',
    })
    expect(everywhere('00 52 55 1234 5678')).toMatchObject({
      e164: '+525512345678',
      territory: '+52',
      mailCalls: 'tel:+525512345678',
      mailWhatsApp: 'https://wa.me/525512345678',
      template: '00 52 55 1234 5678 (+525512345678)',
    })
  })

  it('a Mexican number without its country code, or with the old mobile 1, is +52', () => {
    expect(everywhere('55 1234 5678')).toMatchObject({ e164: '+525512345678', territory: '+52' })
    expect(everywhere('+52 1 55 1234 5678')).toMatchObject({ e164: '+525512345678' })
    expect(everywhere('+52 55 1234 5678').template).toBe('+52 55 1234 5678')
  })

  it('a number of a country we sell to is never called invalid, though the routes do not name it', () => {
    // No route for Spain: Mexico is asked first, then Spain as a country we sell to.
    const mexicoOnly = phoneRegions(['52'])
    const spanish = parsePhone('612 345 678', mexicoOnly)
    expect(spanish).toMatchObject({ e164: '+34612345678', assumed: 'ES' })
    expect(phoneLinks(spanish!)).toEqual({
      tel: 'tel:+34612345678',
      whatsApp: 'https://wa.me/34612345678',
    })
    expect(phoneForPeople('612 345 678', spanish)).toBe(
      '612 345 678 (sin código de país; si es de España, +34612345678)',
    )
    const mail = leadMail(
      newRecord('s', 't', { user_name: 'Ana', user_phone: '612 345 678', contact_number: '7' }),
      'America/Mexico_City',
      { regions: mexicoOnly },
    )
    expect(mail.text).toContain(
      'Teléfono: 612 345 678 (sin código de país; si es de España, +34612345678)',
    )
    expect(mail.text).not.toContain('no es un número válido')
    // With its country code it is simply Spanish, and with a route it is the route's.
    expect(parsePhone('+34 612 345 678', mexicoOnly)).toMatchObject({ assumed: null })
    expect(parsePhone('612 345 678', regions)).toMatchObject({ assumed: null })
    // A number of no country at all is still said to be none.
    expect(parsePhone('12345', mexicoOnly)).toBeNull()
  })

  it('what the visitor wrote is kept beside the number', () => {
    expect(phoneForPeople('55-1234-5678', parsePhone('55-1234-5678'))).toBe(
      '55-1234-5678 (+525512345678)',
    )
    expect(phoneForPeople('', null)).toBe('sin teléfono')
  })
})
