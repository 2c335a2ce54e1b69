// The mails of a booked demo (decision 026), in Spanish, each with its iCalendar invitation
// (invitation.ts). The visitor's says the day and hour in the visitor's time zone, the rep, the
// room and the link to change or cancel, and nothing the visitor wrote, not even their name: it
// greets without it, so nobody can use our form to send a stranger a text of their choosing. The
// rep's carries the request's details, as the request's own mail does.
import type { MeetingData } from '../../store/index.js'
import { visibleControls } from '../../text/index.js'
import { invitationIcs } from './invitation.js'
import { mailHtml } from './mail-document.js'

/** A long address breaks within the width of a phone instead of widening the mail. */
const LINK = { wordBreak: 'break-all' } as const

/** The meeting's title in both calendars. */
const SUMMARY = 'Demostración de GASPRE'

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
      subject: `Cancelada: tu demostración de GASPRE del ${when}`,
      lines: [
        'Hola:',
        `Se canceló tu demostración de GASPRE con ${meeting.rep.name} del ${when}.`,
        `Si quieres, agenda otro horario: ${meeting.booking ?? ''}`,
      ],
    }
  }
  const changed = meeting.sequence > 0
  return {
    subject: `${changed ? 'Cambió tu' : 'Tu'} demostración de GASPRE: ${when}`,
    lines: [
      'Hola:',
      `${changed ? 'Tu demostración de GASPRE cambió de horario' : 'Tu demostración de GASPRE quedó agendada'}: el ${when}, con ${meeting.rep.name}.`,
      ...(meeting.room !== null ? [`Videollamada: ${meeting.room}`] : []),
      `Para cambiar el horario o cancelarla: ${meeting.booking ?? ''}`,
      'La invitación va adjunta: ábrela para agregarla a tu calendario.',
    ],
  }
}

function repWords(meeting: MeetingData, when: string) {
  const params = meeting.request?.params
  const who =
    params === undefined
      ? 'una solicitud que se borró'
      : `${shown(params.user_name)} (${shown(params.user_group)})`
  const details =
    params === undefined
      ? ['La persona pidió que se borraran sus datos: la demostración se retira de tu calendario.']
      : [
          `Nombre: ${shown(params.user_name)}`,
          `Correo: ${shown(params.user_email)}`,
          `Teléfono: ${shown(params.user_phone)}`,
          `Grupo o estación: ${shown(params.user_group)}`,
          `Comentarios: ${shown(params.message)}`,
          `Número de contacto: ${shown(params.contact_number)}`,
          `Id de la solicitud: ${meeting.request?.id ?? ''}`,
        ]
  if (meeting.method === 'CANCEL') {
    return {
      subject: `Demostración cancelada: ${who}, ${when}`,
      lines: [`Se canceló la demostración con ${who} del ${when}.`, ...details],
    }
  }
  const changed = meeting.sequence > 0
  return {
    subject: `${changed ? 'Demostración movida' : 'Demostración agendada'}: ${who}, ${when}`,
    lines: [
      `${changed ? 'Cambió de horario la' : 'Se agendó una'} demostración con ${who}: el ${when}.`,
      ...(meeting.room !== null ? [`Videollamada: ${meeting.room}`] : []),
      ...details,
    ],
  }
}

/** The mail of one meeting notice: to the visitor or to the rep, with its invitation. */
export function invitationMail(meeting: MeetingData, now = Date.now()): InvitationMail {
  const when = meetingTime(meeting.start, meeting.zone)
  const words = meeting.for === 'visitor' ? visitorWords(meeting, when) : repWords(meeting, when)
  const foot =
    meeting.for === 'visitor'
      ? 'Recibes este correo porque agendaste una demostración en gaspre.mx.'
      : `Invitación ${meeting.uid} (versión ${meeting.sequence})`
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
    to: meeting.address,
    // The visitor's answer reaches the rep; the rep's, the visitor.
    replyTo: meeting.for === 'visitor' ? meeting.rep.email : meeting.attendee,
    subject: words.subject,
    text: [...words.lines.flatMap((line) => [line, '']), foot, ''].join('\n'),
    html: mailHtml(words.subject, body, foot),
    ics: invitationIcs(meeting, SUMMARY, now),
    method: meeting.method,
  }
}
