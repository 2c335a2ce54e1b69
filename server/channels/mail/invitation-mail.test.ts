// The rep's mail of a booked demo reads as the request's own mail does: the links to answer at
// once, then a table with the meeting's day, hour and zone and every field of the request, the
// same as text and as HTML, what the visitor typed shown as typed.
// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import type { MeetingData } from '../../store/index.js'
import { invitationMail } from './invitation-mail.js'

/** Tuesday 1 December 2026, 10:00 in Mexico City. */
const START = Date.parse('2026-12-01T16:00:00Z')

const params = {
  user_name: 'Lucía <b>Méndez</b> & "Cía"',
  user_email: 'lucia@estacionesdelvalle.mx',
  user_phone: '55 1234 5678',
  user_group: 'Estaciones del Valle',
  message: 'Tenemos 14 estaciones.\nQueremos ver precios & tiempos.',
  contact_number: '1042',
}

const toRep: MeetingData = {
  method: 'REQUEST',
  for: 'rep',
  address: 'ana@gaspre.mx',
  uid: 'u-1@gaspre.mx',
  sequence: 0,
  start: START,
  end: START + 30 * 60_000,
  rep: { name: 'Ana López', email: 'ana@gaspre.mx' },
  attendee: params.user_email,
  room: 'https://meet.example.com/ana',
  booking: null,
  zone: 'America/Mexico_City',
  request: { id: 'R-1', params },
}

/** The HTML as a mail client shows it: its paragraphs, and each row as "label: value". */
function blocksOf(html: string): string[] {
  // eslint-disable-next-line local/page-code-only -- this file runs in jsdom (see its top)
  const document = new DOMParser().parseFromString(html, 'text/html')
  for (const br of document.querySelectorAll('br')) br.replaceWith('\n')
  return [...document.querySelectorAll('p, tr')].map((block) => {
    const cells = [...block.querySelectorAll('th, td')]
    return cells.length > 0
      ? cells.map((cell) => cell.textContent).join(': ')
      : (block.textContent ?? '')
  })
}

describe("the rep's mail of a booked demo", () => {
  it('puts the day, hour and zone, the room and every field in the request mail’s table', () => {
    const mail = invitationMail(toRep)
    const rows = blocksOf(mail.html)
    expect(rows).toEqual(
      expect.arrayContaining([
        'Día: martes, 1 de diciembre de 2026',
        'Hora: 10:00 a 10:30',
        'Videollamada: https://meet.example.com/ana',
        `Nombre: ${params.user_name}`,
        `Correo: ${params.user_email}`,
        'Teléfono: 55 1234 5678 (+525512345678)',
        `Comentarios: ${params.message}`,
        'Número de contacto: 1042',
      ]),
    )
    expect(rows.find((row) => row.startsWith('Zona horaria: '))).toMatch(
      /\(America\/Mexico City\)$/,
    )
    // One model, rendered twice: each one-line row reads the same in the text.
    for (const row of rows.filter((row) => /^[A-ZÁÉÍÓÚ][\w\sáéíóúñ]+: [^\n]+$/.test(row)))
      expect(mail.text).toContain(row)
    expect(mail.html).toContain('href="tel:+525512345678"')
    expect(mail.html).not.toContain('<b>Méndez</b>')
    expect(mail.subject).toMatch(/^Demo agendada: Lucía/)
    expect(mail.replyTo).toBe(params.user_email)
  })

  it('after an erasure, the cancellation names no one and keeps only the meeting’s time', () => {
    const mail = invitationMail({
      ...toRep,
      method: 'CANCEL',
      sequence: 1,
      attendee: null,
      request: null,
    })
    const rows = blocksOf(mail.html)
    expect(rows.filter((row) => /^(Día|Hora|Zona horaria): /.test(row))).toHaveLength(3)
    for (const label of ['Nombre', 'Correo', 'Teléfono', 'Videollamada'])
      expect(
        rows.some((row) => row.startsWith(`${label}: `)),
        label,
      ).toBe(false)
    expect(mail.text).not.toContain('Lucía')
    expect(mail.subject).toMatch(/^Demo cancelada: /)
  })
})
