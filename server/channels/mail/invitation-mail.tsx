// The mails of a booked demo (decision 026), in Spanish, each with its iCalendar invitation
// (invitation.ts). The visitor's says the day and hour in the visitor's time zone, the rep, the
// room and the link to change or cancel, and nothing the visitor wrote, not even their name: it
// greets without it, so nobody can use our form to send a stranger a text of their choosing. The
// rep's carries the request's details in the request mail's table, with the meeting's day, hour
// and zone at its top.
import { requestLines } from '../../../src/contract/lead-server-text.js'
import { parsePhone, phoneForPeople, phoneLinks } from '../../settings/index.js'
import type { MeetingData } from '../../store/index.js'
import { visibleControls } from '../../text/index.js'
import { invitationIcs } from './invitation.js'
import { fieldLines } from './lead-mail.js'
import { FieldTable, type MailRow } from './lead-mail-html.js'
import { mailHtml } from './mail-document.js'

/** A long address breaks within the width of a phone instead of widening the mail. */
const LINK = { wordBreak: 'break-all' } as const

/** The meeting's title in both calendars. */
const SUMMARY = 'Demo de GASPRE'

/** «martes, 27 de octubre de 2026, 10:00 (hora de Europa central)». */
function meetingTime(at: number, zone: string): string {
  const when = new Intl.DateTimeFormat('es-MX', {
    timeZone: zone,
    dateStyle: 'full',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(at)
  const name = new Intl.DateTimeFormat('es-MX', { timeZone: zone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value
  return `${when} (${name ?? zone})`
}

/** One line of the visitor's own data in the rep's mail, shown as the listing shows it. */
const shown = (text: string | undefined): string =>
  text === undefined || text.trim() === '' ? '—' : visibleControls(text.trim())

interface InvitationMail {
  to: string
  replyTo: string | null
  subject: string
  text: string
  html: string
  ics: string
  method: 'REQUEST' | 'CANCEL'
}

function visitorWords(meeting: MeetingData, when: string) {
  if (meeting.method === 'CANCEL') {
    return {
      subject: `Cancelada: tu demo de GASPRE del ${when}`,
      lines: [
        'Hola:',
        `Se canceló tu demo de GASPRE con ${meeting.rep.name} del ${when}.`,
        `Si quieres, agenda otra hora: ${meeting.booking ?? ''}`,
      ],
    }
  }
  const changed = meeting.sequence > 0
  return {
    subject: `${changed ? 'Cambió tu' : 'Tu'} demo de GASPRE: ${when}`,
    lines: [
      'Hola:',
      `${changed ? 'Tu demo de GASPRE cambió de hora' : 'Tu demo de GASPRE quedó agendada'}: el ${when}, con ${meeting.rep.name}.`,
      ...(meeting.room !== null ? [`Videollamada: ${meeting.room}`] : []),
      `Para cambiar la hora o cancelarla: ${meeting.booking ?? ''}`,
      'La invitación va adjunta: ábrela para agregarla a tu calendario.',
    ],
  }
}

/** «martes, 27 de octubre de 2026» in the zone. */
const dayOf = (at: number, zone: string): string =>
  new Intl.DateTimeFormat('es-MX', { timeZone: zone, dateStyle: 'full' }).format(at)

/** «10:00» in the zone. */
const hourOf = (at: number, zone: string): string =>
  new Intl.DateTimeFormat('es-MX', { timeZone: zone, timeStyle: 'short', hourCycle: 'h23' }).format(
    at,
  )

/** «hora de Europa central (Europe/Madrid)»: the name a person knows, and the one to look up. */
function zoneOf(at: number, zone: string): string {
  const name = new Intl.DateTimeFormat('es-MX', { timeZone: zone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value
  return name === undefined ? zone : `${name} (${zone.replace(/_/g, ' ')})`
}

/**
 * The rep's mail as the request's own mail reads (lead-mail-html.tsx): who, the links to answer
 * at once, then a table: the meeting's day, hour and zone (the rep's), the room, and every field
 * of the request as the team reads it.
 */
interface RepMailModel {
  subject: string
  /** The sentence above the table, with the person's name to set in bold. */
  opening: { before: string; name: string | null; after: string }
  links: { tel: string; whatsApp: string } | null
  rows: MailRow[]
}

function repMailModel(meeting: MeetingData, when: string): RepMailModel {
  const params = meeting.request?.params
  const name = params === undefined ? null : shown(params.user_name)
  const group = params === undefined ? null : shown(params.user_group)
  const who = name === null ? 'solicitud borrada' : `${name} (${group})`
  const { start, end, zone } = meeting
  const rows: MailRow[] = [
    ['Día', dayOf(start, zone)],
    ['Hora', `${hourOf(start, zone)} a ${hourOf(end, zone)}`],
    ['Zona horaria', zoneOf(start, zone)],
  ]
  if (meeting.method === 'REQUEST' && meeting.room !== null)
    rows.push(['Videollamada', meeting.room, meeting.room])
  let links: RepMailModel['links'] = null
  if (params !== undefined) {
    const written = params.user_phone ?? ''
    const phone = parsePhone(written)
    links = phone === null ? null : phoneLinks(phone)
    for (const [field, label] of requestLines) {
      const value =
        field === 'user_phone'
          ? visibleControls(phoneForPeople(written, phone))
          : shown(params[field])
      rows.push([label, value])
    }
  }
  const cancelled = meeting.method === 'CANCEL'
  const changed = meeting.sequence > 0
  const [before, after] = cancelled
    ? ['Se canceló la demo con ', `, del ${when}.`]
    : changed
      ? ['Cambió de hora la demo con ', `: el ${when}.`]
      : ['Se agendó una demo con ', `: el ${when}.`]
  return {
    subject: `${cancelled ? 'Demo cancelada' : changed ? 'Demo movida' : 'Demo agendada'}: ${who}, ${when}`,
    opening:
      name === null
        ? { before: `Se canceló la demo del ${when}.`, name: null, after: '' }
        : { before, name, after: ` (${group})${after}` },
    links,
    rows,
  }
}

const ERASED = 'La persona pidió que se borraran sus datos: la demo se retira de tu calendario.'

function repMailText(mail: RepMailModel, foot: string): string {
  const { before, name, after } = mail.opening
  return [
    `${before}${name ?? ''}${after}`,
    '',
    ...(name === null ? [ERASED, ''] : []),
    ...fieldLines(mail.rows),
    '',
    ...(mail.links !== null
      ? [
          'Para responder ya:',
          `  Llamar: ${mail.links.tel}`,
          `  WhatsApp: ${mail.links.whatsApp}`,
          '',
        ]
      : []),
    foot,
    '',
  ].join('\n')
}

function repMailHtml(mail: RepMailModel, foot: string): string {
  const { before, name, after } = mail.opening
  return mailHtml(
    mail.subject,
    <>
      <p>
        {before}
        {name !== null && <strong>{name}</strong>}
        {after}
      </p>
      {name === null && <p>{ERASED}</p>}
      {mail.links !== null && (
        <p>
          <a href={mail.links.tel}>Llamar</a> ·{' '}
          <a href={mail.links.whatsApp}>Escribir por WhatsApp</a> · o responde a este correo
        </p>
      )}
      <FieldTable rows={mail.rows} />
    </>,
    foot,
  )
}

/** The mail of one meeting notice: to the visitor or to the rep, with its invitation. */
export function invitationMail(meeting: MeetingData, now = Date.now()): InvitationMail {
  const when = meetingTime(meeting.start, meeting.zone)
  const common = {
    to: meeting.address,
    // The visitor's answer reaches the rep; the rep's, the visitor.
    replyTo: meeting.for === 'visitor' ? meeting.rep.email : meeting.attendee,
    ics: invitationIcs(meeting, SUMMARY, now),
    method: meeting.method,
  }
  if (meeting.for === 'rep') {
    const mail = repMailModel(meeting, when)
    const invitation = `${meeting.uid}, versión ${meeting.sequence}`
    const foot =
      meeting.request === null
        ? `Invitación ${invitation}`
        : `Id de la solicitud: ${meeting.request.id} · invitación ${invitation}`
    return {
      ...common,
      subject: mail.subject,
      text: repMailText(mail, foot),
      html: repMailHtml(mail, foot),
    }
  }
  const words = visitorWords(meeting, when)
  const foot = 'Recibes este correo porque agendaste una demo en gaspre.mx.'
  const body = (
    <>
      {words.lines.map((line, index) => (
        <p key={index}>
          {/^https?:\/\//.test(line.split(': ').at(-1) ?? '') ? (
            <>
              {line.slice(0, line.lastIndexOf(': ') + 2)}
              <a href={line.split(': ').at(-1)} style={LINK}>
                {line.split(': ').at(-1)}
              </a>
            </>
          ) : (
            line
          )}
        </p>
      ))}
    </>
  )
  return {
    ...common,
    subject: words.subject,
    text: [...words.lines.flatMap((line) => [line, '']), foot, ''].join('\n'),
    html: mailHtml(words.subject, body, foot),
  }
}
