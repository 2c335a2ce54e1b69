// The mail the sales team receives for each demo request, in Spanish, as plain text and HTML:
// the subject names the contact number, the person and the group; the body holds every field,
// the campaign, when the request arrived in the team's time zone, and links to answer at once
// (a call, WhatsApp, or a reply that goes to the visitor). The webhook's JSON body is here too.
import { CAMPAIGN_KEYS } from '../src/contract/attribution.js'
import { requestLines, spreadsheetHeadings } from '../src/contract/lead-server-text.js'
import type { Delivery } from './lead-store.js'
import type { OutboxRecord } from './outbox.js'

const SHOWN = new Set<string>([
  ...requestLines.map(([name]) => name),
  ...CAMPAIGN_KEYS,
  'traffic_source',
])

/** When the request arrived, as the sales team reads a date: "martes, 24 de noviembre de 2026, 10:05". */
export function arrivedAt(iso: string, timeZone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat('es-MX', {
    timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(date)
}

/**
 * The number to dial: digits with a leading + when the visitor gave one. A Mexican number of ten
 * digits without a country code gets +52, as WhatsApp needs one.
 */
function phoneLinks(phone: string): { tel: string; whatsApp: string } | null {
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 7) return null
  const international = phone.trim().startsWith('+')
    ? digits
    : digits.length === 10
      ? `52${digits}`
      : digits
  return { tel: `tel:+${international}`, whatsApp: `https://wa.me/${international}` }
}

/** The campaign in one line: the page's own summary, or the utm parameters it came with. */
function campaignLine(params: Record<string, string>): string {
  const parts = CAMPAIGN_KEYS.filter((key) => (params[key] ?? '') !== '').map(
    (key) => `${key}=${params[key]}`,
  )
  const source = params.traffic_source ?? ''
  if (source === '' && parts.length === 0) return 'sin campaña registrada'
  return [source, ...parts].filter((part) => part !== '').join(' · ')
}

const headingOf = (name: string): string =>
  (spreadsheetHeadings as Record<string, string | undefined>)[name] ?? name

interface LeadMail {
  subject: string
  text: string
  html: string
}

export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  )

export function leadMail(record: OutboxRecord, timeZone: string): LeadMail {
  const { params } = record
  const value = (name: string): string => params[name] ?? ''
  const name = value('user_name') || 'sin nombre'
  const group = value('user_group') || 'sin grupo'
  const contact = value('contact_number')
  const subject = `Solicitud de demo${contact !== '' ? ` n.º ${contact}` : ''}: ${name} (${group})`
  const when = `${arrivedAt(record.receivedAt, timeZone)} (hora de ${timeZone})`
  const campaign = campaignLine(params)
  const links = phoneLinks(value('user_phone'))
  const others = Object.keys(params)
    .filter((key) => !SHOWN.has(key) && params[key] !== '')
    .sort()

  const rows: [string, string][] = [
    ...requestLines.map(([field, label]): [string, string] => [label, value(field) || '—']),
    ['Campaña', campaign],
    ['Recibida', when],
    ...others.map((key): [string, string] => [headingOf(key), value(key)]),
  ]

  const text = [
    `Nueva solicitud de demo de ${name} (${group}).`,
    '',
    ...rows.map(([label, content]) =>
      content.includes('\n')
        ? `${label}:\n${content
            .split('\n')
            .map((line) => `  ${line}`)
            .join('\n')}`
        : `${label}: ${content}`,
    ),
    '',
    'Para responder ya:',
    ...(links !== null ? [`  Llamar: ${links.tel}`, `  WhatsApp: ${links.whatsApp}`] : []),
    `  Correo: responde a este mensaje; la respuesta le llega a ${value('user_email') || 'quien la envió'}.`,
    '',
    `Id de la solicitud: ${record.id}`,
    '',
  ].join('\n')

  const cell = (content: string) => escapeHtml(content).replace(/\n/g, '<br>')
  const html = [
    '<!doctype html>',
    '<html lang="es"><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1a1a1a">',
    `<p>Nueva solicitud de demo de <strong>${escapeHtml(name)}</strong> (${escapeHtml(group)}).</p>`,
    links !== null
      ? `<p><a href="${escapeHtml(links.tel)}">Llamar</a> · ` +
        `<a href="${escapeHtml(links.whatsApp)}">Escribir por WhatsApp</a> · ` +
        'o responde a este correo</p>'
      : '<p>Responde a este correo para escribirle.</p>',
    '<table cellpadding="6" style="border-collapse:collapse">',
    ...rows.map(
      ([label, content]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${cell(content)}</td></tr>`,
    ),
    '</table>',
    `<p style="color:#666;font-size:12px">Id de la solicitud: ${escapeHtml(record.id)}</p>`,
    '</body></html>',
    '',
  ].join('\n')
  return { subject, text, html }
}

/** The webhook's body: the request's id, time and every field the visitor sent. */
export function webhookBody(record: OutboxRecord): string {
  const { params } = record
  const campaign = Object.fromEntries(
    CAMPAIGN_KEYS.filter((key) => params[key] !== undefined).map((key) => [key, params[key]]),
  )
  return JSON.stringify({
    type: 'demo_request.created',
    timestamp: record.receivedAt,
    data: {
      id: record.id,
      receivedAt: record.receivedAt,
      name: params.user_name ?? null,
      email: params.user_email ?? null,
      phone: params.user_phone ?? null,
      group: params.user_group ?? null,
      message: params.message ?? null,
      contactNumber: params.contact_number ?? null,
      trafficSource: params.traffic_source ?? null,
      campaign,
      params,
    },
  })
}

/** How a delivery went, for a person: entregado, pendiente con el próximo intento, fallido y por qué. */
export function deliveryState(delivery: Delivery, timeZone: string): string {
  const when = (ms: number) => arrivedAt(new Date(ms).toISOString(), timeZone)
  switch (delivery.state) {
    case 'delivered':
      return (
        `entregado el ${arrivedAt(delivery.deliveredAt ?? '', timeZone)}` +
        (delivery.lastError !== null ? ` (${delivery.lastError})` : '')
      )
    case 'pending':
      if (delivery.sendingUntil !== null) {
        return `pendiente: enviándose ahora (${delivery.attempts} ${delivery.attempts === 1 ? 'intento fallido' : 'intentos fallidos'} antes)`
      }
      return delivery.attempts === 0
        ? `pendiente: se envía ${delivery.nextAttemptAt <= Date.now() ? 'ya' : `el ${when(delivery.nextAttemptAt)}`}`
        : `pendiente: próximo intento el ${when(delivery.nextAttemptAt)} ` +
            `(${delivery.attempts} ${delivery.attempts === 1 ? 'intento fallido' : 'intentos fallidos'}; ${delivery.lastError ?? 'sin detalle'})`
    case 'failed':
      return `fallido: ${delivery.lastError ?? 'sin detalle'} (tras ${delivery.attempts} ${delivery.attempts === 1 ? 'intento' : 'intentos'})`
    case 'held':
      return 'retenido: no se envía hasta que alguien lo libere'
  }
}
