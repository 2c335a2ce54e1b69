// The request's mail reads the same as text and as HTML: one model, rendered twice, and what a
// visitor typed (markup, quotes, ampersands) shown as typed, never read as markup.
// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { leadMail } from './lead-mail.js'
import { noticeMail } from './notices.js'

const record = {
  id: 'R-1',
  receivedAt: '2026-11-24T16:05:00.000Z',
  serviceId: 's',
  templateId: 't',
  params: {
    user_name: 'Ana <b>López</b> & "Cía"',
    user_email: 'ana@gasolinera.mx',
    user_phone: '55 1234 5678',
    user_group: "Grupo <script>alert('x')</script>",
    message: 'Quiero una demo.\nTenemos <12> estaciones & más.',
    contact_number: '48213',
  },
}

/** The HTML as a mail client shows it: its paragraphs, and each row as "label: value". */
function shown(html: string): { blocks: string[]; document: Document } {
  // eslint-disable-next-line local/page-code-only -- this file runs in jsdom (see its top)
  const document = new DOMParser().parseFromString(html, 'text/html')
  for (const br of document.querySelectorAll('br')) br.replaceWith('\n')
  const blocks = [...document.querySelectorAll('p, tr')].map((block) => {
    const cells = [...block.querySelectorAll('th, td')]
    return cells.length > 0
      ? cells.map((cell) => cell.textContent).join(': ')
      : (block.textContent ?? '')
  })
  return { blocks, document }
}

/** Fields of the request as the team reads them. */
const FIELDS = [
  ['Nombre', 'Ana <b>López</b> & "Cía"'],
  ['Teléfono', '55 1234 5678 (+525512345678)'],
  ['Comentarios', 'Quiero una demo.\nTenemos <12> estaciones & más.'],
  ['Número de contacto', '48213'],
] as const

describe('the mail of a demo request', () => {
  it('shows in HTML every field the text shows, as the visitor typed it', () => {
    const mail = leadMail(record, 'America/Mexico_City')
    const { blocks, document } = shown(mail.html)
    expect(document.documentElement.lang).toBe('es')
    expect(document.title).toBe(mail.subject)
    // Nothing the visitor typed became an element.
    expect(document.querySelectorAll('script, b')).toHaveLength(0)
    expect(blocks[0]).toBe(
      `Nueva solicitud de demo de Ana <b>López</b> & "Cía" (Grupo <script>alert('x')</script>).`,
    )
    for (const [label, value] of FIELDS) {
      expect(blocks).toContain(`${label}: ${value}`)
      expect(mail.text).toContain(
        value.includes('\n') ? `${label}:\n  ${value.replace('\n', '\n  ')}` : `${label}: ${value}`,
      )
    }
    const links = [...document.querySelectorAll('a')].map((a) => [a.textContent, a.href])
    expect(links).toEqual([
      ['Llamar', 'tel:+525512345678'],
      ['Escribir por WhatsApp', 'https://wa.me/525512345678'],
    ])
    expect(mail.text).toContain('Llamar: tel:+525512345678')
    expect(mail.text).toContain('WhatsApp: https://wa.me/525512345678')
    expect(blocks.at(-1)).toBe('Id de la solicitud: R-1')
    expect(mail.text).toContain('Id de la solicitud: R-1')
  })

  it('without a phone to call, says to answer by mail', () => {
    const mail = leadMail(
      { ...record, params: { ...record.params, user_phone: 'no tengo' } },
      'UTC',
    )
    const { document } = shown(mail.html)
    expect(document.querySelectorAll('a')).toHaveLength(0)
    expect(document.body.textContent).toContain('Responde a este correo para escribirle.')
    expect(mail.text).not.toContain('Llamar:')
  })
})

describe('the mail of a notice', () => {
  it('has one paragraph per sentence of its text, the error shown as text', () => {
    const mail = noticeMail(
      {
        id: 'N-1',
        requestId: null,
        carrier: 'email',
        type: 'delivery.failing',
        subject: 'webhook',
        data: { since: '2026-11-24T16:05:00.000Z', waiting: 2, reason: 'HTTP 401: <b>no</b>' },
        createdAt: '2026-11-24T16:20:00.000Z',
        attempts: 0,
        faultedAt: null,
      },
      'America/Mexico_City',
    )
    const { blocks, document } = shown(mail.html)
    expect(document.querySelectorAll('b')).toHaveLength(0)
    expect(blocks).toContain('Último error: HTTP 401: <b>no</b>.')
    expect(blocks).toEqual(mail.text.split('\n').filter((line) => line !== ''))
  })
})
