// The e-mail channel: one SMTP session per send, through nodemailer's public API
// (createTransport with the SMTP_URL, sendMail), so that a send can be cut at its deadline, a
// stop or a flood of answers without touching any other, and so that each recipient's answer is
// known. What would fail any mail (the connection, TLS, the login, a 421/454, the sender refused,
// every configured recipient refused) is the channel's fault; what is this mail's (refused at the
// end of DATA) or one recipient's (refused at RCPT TO while others take it) is the job's.
//
// The deadlines of a hostile server, all through documented options:
// - connectionTimeout, greetingTimeout, socketTimeout (https://nodemailer.com/smtp/, "Connection
//   options"): a server that never greets, or goes silent mid-session;
// - a custom socket (https://nodemailer.com/smtp/proxies/, "custom proxy handler": a
//   transporter's getSocket hands nodemailer an open `connection`, and the other keys it returns
//   join the connection's options): the connection is ours (metered-socket.ts), so the worker's
//   AbortSignal (its deadline for the whole send, or a stop) destroys it at once, and a server that
//   answers 250- lines without end, fast or dribbling, is cut past MAX_ANSWER_BYTES.
import nodemailer from 'nodemailer'
import type { CountryCode } from 'libphonenumber-js/max'
import type { DeliveryConfig } from '../../settings/index.js'
import type { Job } from '../../store/index.js'
import { abortReason, type Outcome, type Sender } from '../../queue/index.js'
import { bounded, errorText } from '../../text/index.js'
import { leadMail, displayName } from './lead-mail.js'
import { openMeteredSocket, type MeteredSocket } from './metered-socket.js'
import { noticeMail } from './notices.js'
import { invitationMail } from './invitation-mail.js'

type MailConfig = NonNullable<DeliveryConfig['email']>

/** Answers a mail server may send in one session before it is cut: far above any real one. */
const MAX_ANSWER_BYTES = 256 * 1024

/** SMTP codes that say the server or the login failed, whatever the message. */
const CHANNEL_CODES = new Set([421, 454, 530, 534, 535, 538])

/** The address a text names: `Name <a@b>` or `a@b`. */
const addressOf = (from: string): string => /<([^<>]*)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim()

/** The domain a Message-ID names: the sender's. */
const domainOf = (from: string): string => addressOf(from).split('@')[1]?.trim() || 'localhost'

/**
 * The Message-ID of a request's mail: the same on every attempt.
 * @internal its tests use it too
 */
export const messageIdOf = (id: string, from: string): string => `<lead-${id}@${domainOf(from)}>`

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()
const without = (list: readonly string[], gone: readonly string[]): string[] =>
  list.filter((address) => !gone.some((other) => sameAddress(address, other)))

/**
 * Every mail the server sends is made by a program (RFC 3834, 5): an out-of-office reply or a
 * vacation responder must not answer it, neither to the prospect in its Reply-To nor back
 * into the sales inbox.
 */
const AUTOMATIC = { 'Auto-Submitted': 'auto-generated' }

/** The message as nodemailer's sendMail takes it (without its envelope). */
function message(
  job: Job,
  config: MailConfig,
  timeZone: string,
  regions: readonly CountryCode[],
): nodemailer.SendMailOptions {
  if (job.kind === 'notice' && job.notice.data.meeting !== undefined) {
    // A booked demo's invitation (iMIP, RFC 6047): the calendar part as nodemailer's icalEvent,
    // a text/calendar alternative with its METHOD, which mail clients offer to add.
    const mail = invitationMail(job.notice.data.meeting)
    return {
      from: config.from,
      to: mail.to,
      ...(mail.replyTo !== null && { replyTo: mail.replyTo }),
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      icalEvent: { method: mail.method, filename: 'invitacion.ics', content: mail.ics },
      messageId: `<notice-${job.notice.id}@${domainOf(config.from)}>`,
      headers: { 'X-Gaspre-Notice': job.notice.type },
    }
  }
  if (job.kind === 'notice') {
    const mail = noticeMail(job.notice, timeZone)
    const { requestId } = job.notice
    // A notice about one request answers the request's mail (RFC 5322 3.6.4), so that the
    // sales team reads it in the request's thread.
    const request = requestId === null ? null : messageIdOf(requestId, config.from)
    return {
      from: config.from,
      to: config.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<notice-${job.notice.id}@${domainOf(config.from)}>`,
      ...(request !== null && { inReplyTo: request, references: [request] }),
      headers: { ...AUTOMATIC, 'X-Gaspre-Notice': job.notice.type },
    }
  }
  const { record } = job
  const mail = leadMail(record, timeZone, { regions, whatsapp: job.whatsapp })
  const visitor = record.params.user_email ?? ''
  return {
    from: config.from,
    to: config.to,
    // The visitor's name never carries an address of its own (`Soporte <soporte@…>`).
    ...(visitor !== '' && {
      replyTo: { name: displayName(record.params.user_name ?? ''), address: visitor },
    }),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: messageIdOf(record.id, config.from),
    headers: { ...AUTOMATIC, 'X-Gaspre-Request-Id': record.id },
  }
}

/** What nodemailer's SMTP errors carry (its SMTPError, as documented for sendMail's errors). */
interface SmtpError extends Error {
  code?: string
  command?: string
  response?: string
  responseCode?: number
  rejectedErrors?: SmtpError[]
  recipient?: string
}

/** What sendMail resolves with on SMTP: who took the message, and who refused it. */
interface SentInfo {
  accepted: (string | { address: string })[]
  rejectedErrors?: SmtpError[]
}

const smtpReason = (error: SmtpError): string =>
  bounded(
    error.responseCode !== undefined
      ? `SMTP ${error.responseCode}: ${(error.response ?? error.message).trim()}`
      : errorText(error),
  )

/** Who is to blame for a session that failed before the message was taken. */
function blameOf(error: SmtpError): 'channel' | 'retry' | 'rejected' {
  const code = error.responseCode
  const command = error.command ?? ''
  if (code === undefined || CHANNEL_CODES.has(code)) return 'channel'
  // At the end of DATA the server judged this message; at DATA itself, every message.
  if (command === 'DATA' && error.code === 'EMESSAGE') return code >= 500 ? 'rejected' : 'retry'
  if (command === 'MAIL FROM' && error.code === 'EMESSAGE') return 'rejected' // too large
  return 'channel'
}

/** The connection's timeouts (nodemailer's documented options), within the worker's deadline. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

/** nodemailer's custom socket hook: called for each connection it would open. */
type GetSocket = (
  options: { host?: string; port?: number; secure?: boolean },
  callback: (error: Error | null, socketOptions?: object) => void,
) => void

/**
 * One SMTP session on a connection of our own: resolves with what the server answered, rejects
 * with nodemailer's error, or with the reason the connection was cut (a stop, the deadline,
 * answers without end), at once.
 */
async function session(
  smtpUrl: string,
  mail: nodemailer.SendMailOptions,
  signal: AbortSignal,
): Promise<SentInfo> {
  const transporter = nodemailer.createTransport(smtpUrl)
  let socket: MeteredSocket | null = null
  const getSocket: GetSocket = (options, callback) => {
    const port = Number(options.port) || (options.secure === true ? 465 : 587)
    openMeteredSocket(options.host ?? 'localhost', port, {
      connectMs: TIMEOUTS.connectionTimeout,
      maxAnswerBytes: MAX_ANSWER_BYTES,
      signal,
    }).then(
      (opened) => {
        socket = opened
        callback(null, { connection: opened, ...TIMEOUTS })
      },
      (error: Error) => callback(error),
    )
  }
  // The documented hook (nodemailer.com/smtp/proxies): sendMail hands it to the SMTP transport.
  Object.assign(transporter, { getSocket })
  let stop = (): void => undefined
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(new Error(abortReason(signal)))
  })
  if (signal.aborted) stop()
  else signal.addEventListener('abort', stop, { once: true })
  const sending = transporter.sendMail(mail) as Promise<SentInfo>
  // Once cut, its late failure is the cut's, already answered.
  sending.catch(() => undefined)
  stopped.catch(() => undefined)
  try {
    return await Promise.race([sending, stopped])
  } catch (error) {
    // A connection cut here may reach nodemailer as a closed socket: say why it was cut.
    const cutBecause = (socket as MeteredSocket | null)?.cutBecause
    throw cutBecause != null ? new Error(cutBecause) : error
  } finally {
    signal.removeEventListener('abort', stop)
    transporter.close()
  }
}

export function mailSender(
  config: MailConfig,
  timeZone: string,
  regions: readonly CountryCode[] = ['MX'],
): Sender {
  const from = addressOf(config.from)
  return {
    async send(job, signal, recipients) {
      const done = job.kind === 'request' ? job.delivery.doneRecipients : []
      const refusedBefore = job.kind === 'request' ? job.delivery.refusedRecipients : []
      // An invitation goes to its one address (the visitor's or the rep's), not to the team.
      const invited = job.kind === 'notice' ? job.notice.data.meeting?.address : undefined
      const to =
        invited !== undefined ? [invited] : without(without(config.to, done), refusedBefore)
      if (to.length === 0) {
        return refusedBefore.length > 0
          ? { kind: 'rejected', reason: `rechazado para ${refusedBefore.join(', ')}`, proven: true }
          : { kind: 'delivered' }
      }
      const mail = { ...message(job, config, timeZone, regions), envelope: { from, to } }
      let info: SentInfo
      try {
        info = await session(config.smtpUrl, mail, signal)
      } catch (error) {
        if (signal.aborted) return { kind: 'channel-fault', reason: abortReason(signal) }
        return failedSession(error as SmtpError, { to, done, refusedBefore, config, recipients })
      }
      if (job.kind === 'notice') return { kind: 'delivered' }
      return answered(info, { to, done, refusedBefore, recipients })
    },
  }
}

interface Recipients {
  to: string[]
  done: readonly string[]
  refusedBefore: readonly string[]
  recipients: (answers: { done: string[]; refused: string[] }) => Promise<void>
}

/** The message was taken: by whom, and what the others answered. */
async function answered(
  info: SentInfo,
  { done, refusedBefore, recipients }: Recipients,
): Promise<Outcome> {
  const refusals = info.rejectedErrors ?? []
  const refusedNow = refusals.filter((error) => (error.responseCode ?? 0) >= 500)
  const later = refusals.filter((error) => (error.responseCode ?? 0) < 500)
  const nowDone = [
    ...done,
    ...info.accepted.map((each) => (typeof each === 'string' ? each : each.address)),
  ]
  const refused = [...refusedBefore, ...refusedNow.map((error) => error.recipient ?? '')]
  await recipients({ done: nowDone, refused })
  if (later.length > 0) {
    return {
      kind: 'retry',
      reason: later.map((error) => `${error.recipient ?? ''}: ${smtpReason(error)}`).join('; '),
    }
  }
  if (refused.length > 0) {
    const why = refusedNow.map((error) => `${error.recipient ?? ''}: ${smtpReason(error)}`)
    return {
      kind: 'rejected',
      reason: bounded(`rechazado para ${why.length > 0 ? why.join('; ') : refused.join(', ')}`),
      proven: true,
    }
  }
  return { kind: 'delivered' }
}

/** The session failed: every recipient refused, or the channel, or this message. */
async function failedSession(
  error: SmtpError,
  { to, done, refusedBefore, recipients, config }: Recipients & { config: MailConfig },
): Promise<Outcome> {
  if (error.command === 'RCPT TO' && error.rejectedErrors !== undefined) {
    // Every configured address refused: no mail can go. Some of them, after others took it
    // before: their own fault, as the others show.
    if (without(config.to, to).length === 0) {
      return { kind: 'channel-fault', reason: smtpReason(error.rejectedErrors[0] ?? error) }
    }
    const refusals = error.rejectedErrors
    const refusedNow = refusals.filter((each) => (each.responseCode ?? 0) >= 500)
    const refused = [...refusedBefore, ...refusedNow.map((each) => each.recipient ?? '')]
    if (refusedNow.length > 0) await recipients({ done: [...done], refused })
    const why = refusals.map((each) => `${each.recipient ?? ''}: ${smtpReason(each)}`).join('; ')
    return refusedNow.length === refusals.length
      ? { kind: 'rejected', reason: bounded(`rechazado para ${why}`), proven: true }
      : { kind: 'retry', reason: bounded(why) }
  }
  const reason = smtpReason(error)
  switch (blameOf(error)) {
    case 'channel':
      return { kind: 'channel-fault', reason }
    case 'retry':
      return { kind: 'retry', reason }
    case 'rejected':
      return { kind: 'rejected', reason, proven: false }
  }
}
