// A demo request's mail as HTML: who asked and the links to answer at once above, every field in
// a table below, the request's id at the foot. Its model serves the text too (lead-mail.ts).
import { Fragment } from 'react'
import { mailHtml } from './mail-document.js'

/** What a request's mail says, whatever it is rendered as. */
export interface LeadMailModel {
  subject: string
  /** Who asked and for which group, each on one line. */
  name: string
  group: string
  /** A call and a WhatsApp link, when the phone is a number. */
  links: { tel: string; whatsApp: string } | null
  /** Each field as the team reads it: its label and its value (which may hold line breaks). */
  rows: (readonly [label: string, content: string])[]
  /** Whom a reply reaches. */
  replyReaches: string
  id: string
}

/** As `cellpadding=6` and `valign=top` did, in the CSS every mail client reads. */
const CELL = { textAlign: 'left', verticalAlign: 'top', padding: '6px' } as const
/** A long address breaks within the width of a phone instead of widening the mail. */
const LINK = { wordBreak: 'break-all' } as const

/** A row of a mail's table: its label, its value, and where the value links to, if anywhere. */
export type MailRow = readonly [label: string, content: string, href?: string]

/** A value that may hold line breaks, with each break kept. */
function Lines({ text }: { text: string }) {
  return text.split('\n').map((line, index) => (
    <Fragment key={index}>
      {index > 0 && <br />}
      {line}
    </Fragment>
  ))
}

/** The fields as the team reads them, label beside value, in every mail that lists them. */
export function FieldTable({ rows }: { rows: readonly MailRow[] }) {
  return (
    <table style={{ borderCollapse: 'collapse' }}>
      <tbody>
        {rows.map(([label, content, href], index) => (
          <tr key={index}>
            <th style={CELL}>{label}</th>
            <td style={CELL}>
              {href === undefined ? (
                <Lines text={content} />
              ) : (
                <a href={href} style={LINK}>
                  {content}
                </a>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function leadMailHtml(mail: LeadMailModel): string {
  const body = (
    <>
      <p>
        Nueva solicitud de demo de <strong>{mail.name}</strong> ({mail.group}).
      </p>
      {mail.links !== null ? (
        <p>
          <a href={mail.links.tel}>Llamar</a> ·{' '}
          <a href={mail.links.whatsApp}>Escribir por WhatsApp</a> · o responde a este correo
        </p>
      ) : (
        <p>Responde a este correo para escribirle.</p>
      )}
      <FieldTable rows={mail.rows} />
    </>
  )
  return mailHtml(mail.subject, body, `Id de la solicitud: ${mail.id}`)
}
