import { describe, expect, it } from 'vitest'
import { fallbackMessage } from '../copy/fallback-message'
import { MAX_FALLBACK_URL_LENGTH } from './fallback-url-length'
import {
  emailRequestLink,
  requestText,
  whatsappRequestLink,
  type FallbackRequest,
} from './fallback-links'

const copy = fallbackMessage
const request: FallbackRequest = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Altamar',
  message: '¿Pueden mostrarme el diésel de mi zona?',
  contact_number: '4821',
}

const textOf = (href: string, parameter: string) =>
  new URLSearchParams(href.slice(href.indexOf('?') + 1)).get(parameter) ?? ''

describe('the request written out for WhatsApp and e-mail', () => {
  it('names every field the visitor filled, with the contact number before the comments', () => {
    const text = requestText(request, copy)
    expect(text.split('\n')).toEqual([
      copy.intro,
      '',
      'Nombre: Ana López',
      'Grupo o estación: Grupo Altamar',
      'Teléfono: +52 55 1234 5678',
      'Correo: ana@grupo.mx',
      'Número de contacto: 4821',
      'Comentarios: ¿Pueden mostrarme el diésel de mi zona?',
    ])
  })

  it('leaves out empty comments', () => {
    expect(requestText({ ...request, message: '  ' }, copy)).not.toContain('Comentarios')
  })

  it('is carried whole by a wa.me link to the sales number', () => {
    const href = whatsappRequestLink('5215512345678', request, copy)
    expect(href.startsWith('https://wa.me/5215512345678?text=')).toBe(true)
    expect(textOf(href, 'text')).toBe(requestText(request, copy))
  })

  it('is carried whole by a mailto link with a subject', () => {
    const href = emailRequestLink('contacto@gaspre.mx', request, copy)
    expect(href.startsWith('mailto:contacto@gaspre.mx?subject=')).toBe(true)
    expect(textOf(href, 'subject')).toBe(copy.subject)
    expect(textOf(href, 'body')).toBe(requestText(request, copy))
    // Spaces as %20: mail apps do not all read + as a space.
    expect(href).not.toContain('+')
  })

  it('cuts only the end of long comments so phones still open the link', () => {
    const long = {
      ...request,
      message: 'Estación en Querétaro con diésel y premium 🚚. '.repeat(60),
    }
    for (const href of [
      whatsappRequestLink('5215512345678', long, copy),
      emailRequestLink('contacto@gaspre.mx', long, copy),
    ]) {
      expect(href.length).toBeLessThanOrEqual(MAX_FALLBACK_URL_LENGTH)
      expect(href.length).toBeGreaterThan(MAX_FALLBACK_URL_LENGTH - 40)
      const text = textOf(href, href.startsWith('mailto:') ? 'body' : 'text')
      expect(text).toContain('Número de contacto: 4821')
      expect(text.endsWith('…')).toBe(true)
      // Never half an emoji: the text decoded without a replacement character.
      expect(text).not.toContain('\uFFFD')
    }
  })
})
