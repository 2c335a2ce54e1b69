// The mail the sales team receives for each demo request, in Spanish: the subject names the
// contact number, the person and the group; the body holds every field, the campaign, when the
// request arrived in the team's time zone, and links to answer at once (a call, WhatsApp, or a
// reply that goes to the visitor). One model, rendered twice: as the text below and as HTML
// (lead-mail-html.tsx).
import type { CountryCode } from 'libphonenumber-js/max'
import { CAMPAIGN_KEYS } from '../../../src/contract/attribution.js'
import { requestLines, spreadsheetHeadings } from '../../../src/contract/lead-server-text.js'
import { parsePhone, phoneForPeople, phoneLinks } from '../../settings/index.js'
import type { DemoRequestRecord, WhatsAppRoute } from '../../store/index.js'
import { arrivedAt, visibleControls } from '../../text/index.js'
import { leadMailHtml, type LeadMailModel, type MailRow } from './lead-mail-html.js'

const SHOWN = new Set<string>([
  ...requestLines.map(([name]) => name),
  ...CAMPAIGN_KEYS,
  'traffic_source',
])

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

/** A value the visitor typed, on one line, what a mail client would hide shown as `\u200b`. */
const oneLine = (text: string): string => visibleControls(text).replace(/\s+/g, ' ').trim()

/**
 * The request mail's subject, from what the visitor typed: the notices about the request answer
 * it (`Re: …`), so that a mail client threads them under it.
 */
export function requestMailSubject(params: {
  contactNumber: string
  name: string
  group: string
}): string {
  const contact = oneLine(params.contactNumber)
  const name = oneLine(params.name) || 'sin nombre'
  const group = oneLine(params.group) || 'sin grupo'
  return `Solicitud de demo${contact !== '' ? ` n.º ${contact}` : ''}: ${name} (${group})`
}

function leadMailModel(
  record: DemoRequestRecord,
  timeZone: string,
  context: LeadMailContext,
): LeadMailModel {
  const { params } = record
  // What the visitor typed, with what a mail client would hide (a zero-width space, a direction
  // mark, tag characters) shown as the listing shows it.
  const value = (name: string): string => visibleControls(params[name] ?? '')
  const name = oneLine(params.user_name ?? '') || 'sin nombre'
  const group = oneLine(params.user_group ?? '') || 'sin grupo'
  const written = params.user_phone ?? ''
  const phone = parsePhone(written, context.regions)
  const others = Object.keys(params)
    .filter((key) => !SHOWN.has(key) && params[key] !== '')
    .sort()
  const rep = context.whatsapp?.rep
  return {
    subject: requestMailSubject({
      contactNumber: params.contact_number ?? '',
      name: params.user_name ?? '',
      group: params.user_group ?? '',
    }),
    name,
    group,
    links: phone === null ? null : phoneLinks(phone),
    rows: [
      ...requestLines.map(
        ([field, label]) =>
          [
            label,
            field === 'user_phone'
              ? visibleControls(phoneForPeople(written, phone))
              : value(field) || '—',
          ] as const,
      ),
      ['Campaña', visibleControls(campaignLine(params))],
      ['Recibida', `${arrivedAt(record.receivedAt, timeZone)} (hora de ${timeZone})`],
      ...(rep !== undefined ? [['Por WhatsApp a', rep] as const] : []),
      ...others.map((key) => [visibleControls(headingOf(key)), value(key)] as const),
    ],
    replyReaches: value('user_email') || 'quien la envió',
    id: record.id,
  }
}

/** The fields in a mail's plain text: a line each, a value of several lines indented under it. */
export const fieldLines = (rows: readonly MailRow[]): string[] =>
  rows.map(([label, content]) =>
    content.includes('\n')
      ? `${label}:\n${content
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n')}`
      : `${label}: ${content}`,
  )

/** The model as the mail's plain text: a line per field, a value of several lines indented. */
function leadMailText(mail: LeadMailModel): string {
  return [
    `Nueva solicitud de demo de ${mail.name} (${mail.group}).`,
    '',
    ...fieldLines(mail.rows),
    '',
    'Para responder ya:',
    ...(mail.links !== null
      ? [`  Llamar: ${mail.links.tel}`, `  WhatsApp: ${mail.links.whatsApp}`]
      : []),
    `  Correo: responde a este mensaje; la respuesta le llega a ${mail.replyReaches}.`,
    '',
    `Id de la solicitud: ${mail.id}`,
    '',
  ].join('\n')
}

export function leadMail(
  record: DemoRequestRecord,
  timeZone: string,
  context: LeadMailContext = {},
): { subject: string; text: string; html: string } {
  const mail = leadMailModel(record, timeZone, context)
  return { subject: mail.subject, text: leadMailText(mail), html: leadMailHtml(mail) }
}
