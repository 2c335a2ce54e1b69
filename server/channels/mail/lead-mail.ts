// The mail the sales team receives for each demo request, in Spanish, as plain text and HTML:
// the subject names the contact number, the person and the group; the body holds every field,
// the campaign, when the request arrived in the team's time zone, and links to answer at once
// (a call, WhatsApp, or a reply that goes to the visitor). The webhook's JSON body is here too.
import { CAMPAIGN_KEYS } from '../../../src/contract/attribution.js'
import { escapeHtml } from '../../../src/contract/escape-html.js'
import { requestLines, spreadsheetHeadings } from '../../../src/contract/lead-server-text.js'
import type { CountryCode } from 'libphonenumber-js/max'
import type { Delivery, WhatsAppRoute } from '../../store/index.js'
import type { DemoRequestRecord } from '../../store/index.js'
import { parsePhone, phoneForPeople, phoneLinks } from '../../settings/index.js'
import { visibleControls } from '../../text/index.js'

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

/** What a mail's reader sees of the request and how it reaches the sales team. */
interface LeadMailContext {
  /** Where a phone number without a country code is looked for (Mexico first). */
  regions?: readonly CountryCode[]
  /** The WhatsApp rep it went to, when that channel is on. */
  whatsapp?: WhatsAppRoute | null
}

/**
 * A display name that cannot pass for an address: whatever looks like one (`<…>`, a word with
 * an @) is left out, and so are the characters a header would read as structure.
 */
export function displayName(name: string): string {
  return visibleControls(name)
    .replace(/<[^>]*>?/g, ' ')
    .replace(/\S*@\S*/g, ' ')
    .replace(/["<>,;:\\()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
}

export function leadMail(
  record: DemoRequestRecord,
  timeZone: string,
  context: LeadMailContext = {},
): LeadMail {
  const { params } = record
  // What the visitor typed, with what a mail client would hide (a zero-width space, a direction
  // mark, tag characters) shown as the listing shows it.
  const value = (name: string): string => visibleControls(params[name] ?? '')
  const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()
  const name = oneLine(value('user_name')) || 'sin nombre'
  const group = oneLine(value('user_group')) || 'sin grupo'
  const contact = oneLine(value('contact_number'))
  const subject = `Solicitud de demo${contact !== '' ? ` n.º ${contact}` : ''}: ${name} (${group})`
  const when = `${arrivedAt(record.receivedAt, timeZone)} (hora de ${timeZone})`
  const campaign = visibleControls(campaignLine(params))
  const written = params.user_phone ?? ''
  const phone = parsePhone(written, context.regions)
  const links = phone === null ? null : phoneLinks(phone)
  const others = Object.keys(params)
    .filter((key) => !SHOWN.has(key) && params[key] !== '')
    .sort()
  const rep = context.whatsapp?.rep

  const rows: [string, string][] = [
    ...requestLines.map(([field, label]): [string, string] => [
      label,
      field === 'user_phone'
        ? visibleControls(phoneForPeople(written, phone))
        : value(field) || '—',
    ]),
    ['Campaña', campaign],
    ['Recibida', when],
    ...(rep !== undefined ? [['Por WhatsApp a', rep] as [string, string]] : []),
    ...others.map((key): [string, string] => [visibleControls(headingOf(key)), value(key)]),
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
export function webhookBody(record: DemoRequestRecord, context: LeadMailContext = {}): string {
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
      // One E.164 number, or null when what the visitor wrote is none.
      phoneE164: parsePhone(params.user_phone ?? '', context.regions)?.e164 ?? null,
      group: params.user_group ?? null,
      message: params.message ?? null,
      contactNumber: params.contact_number ?? null,
      trafficSource: params.traffic_source ?? null,
      campaign,
      whatsapp:
        context.whatsapp != null
          ? { rep: context.whatsapp.rep, territory: context.whatsapp.territory }
          : null,
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

/**
 * How each WhatsApp message went, one line per rep tried: when the rep's phone received and read
 * it, or why it went on to the next rep.
 */
export function whatsAppLines(route: WhatsAppRoute, timeZone: string): string[] {
  const when = (ms: number) => arrivedAt(new Date(ms).toISOString(), timeZone)
  const lines = route.messages.map((message) => {
    const parts: string[] = []
    if (message.sentAt === null)
      parts.push(message.movedOnAt === null ? 'por enviar' : 'no enviado')
    else parts.push(`enviado el ${when(message.sentAt)}`)
    if (message.deliveredAt !== null) parts.push(`recibido el ${when(message.deliveredAt)}`)
    if (message.readAt !== null) parts.push(`leído el ${when(message.readAt)}`)
    else if (message.sentAt !== null && message.movedOnAt === null && message.failedAt === null)
      parts.push('sin leer todavía')
    if (message.failedAt !== null)
      parts.push(`falló el ${when(message.failedAt)} (${message.failure ?? 'sin detalle'})`)
    if (message.movedOnAt !== null) {
      const why =
        message.movedOnBecause === 'unread'
          ? 'sin leer a tiempo'
          : message.movedOnBecause === 'refused'
            ? `su número no la recibe: ${message.failure ?? 'sin detalle'}`
            : 'falló'
      parts.push(`pasó al siguiente el ${when(message.movedOnAt)} (${why})`)
    }
    return `${message.rep}: ${parts.join('; ')}`
  })
  if (route.exhaustedAt !== null) {
    lines.push(`nadie la ha leído: se avisó por correo el ${when(route.exhaustedAt)}`)
  }
  return lines
}
