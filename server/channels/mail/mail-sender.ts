// The e-mail channel: one SMTP session per send (nodemailer's SMTPConnection), so that a send
// can be cut at its deadline, a stop or a flood of answers without touching any other, and so
// that each recipient's answer is known. What would fail any mail (the connection, TLS, the
// login, a 421/454, the sender refused, every configured recipient refused) is the channel's
// fault; what is this mail's (refused at the end of DATA) or one recipient's (refused at RCPT TO
// while others take it) is the job's.
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js'
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js'
import type { DeliveryConfig } from '../../settings/index.js'
import { noticeMail } from './notices.js'
import { displayName, leadMail } from './lead-mail.js'
import type { CountryCode } from 'libphonenumber-js/max'
import type { Job } from '../../store/index.js'
import { abortReason, type Outcome, type Sender } from '../../queue/index.js'
import { bounded, errorText } from '../../text/index.js'

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

/** The whole message, as it goes after DATA. */
function compose(
  job: Job,
  config: MailConfig,
  timeZone: string,
  regions: readonly CountryCode[],
): Promise<Buffer> {
  if (job.kind === 'notice') {
    const mail = noticeMail(job.notice, timeZone)
    return new MailComposer({
      from: config.from,
      to: config.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<notice-${job.notice.id}@${domainOf(config.from)}>`,
      headers: { 'X-Gaspre-Notice': job.notice.type },
    })
      .compile()
      .build()
  }
  const { record } = job
  const mail = leadMail(record, timeZone, { regions, whatsapp: job.whatsapp })
  const visitor = record.params.user_email ?? ''
  return new MailComposer({
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
    headers: { 'X-Gaspre-Request-Id': record.id },
  })
    .compile()
    .build()
}

type SmtpError = SMTPConnection.SMTPError & {
  rejectedErrors?: SMTPConnection.SMTPError[]
  recipient?: string
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

/** One SMTP session: connect, log in, send; rejects with nodemailer's error, or on `signal`. */
function session(
  connection: SMTPConnection,
  auth: SMTPConnection.Credentials | undefined,
  envelope: { from: string; to: string[] },
  message: Buffer,
  signal: AbortSignal,
): Promise<SMTPConnection.SentMessageInfo> {
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (error: Error | null, info?: SMTPConnection.SentMessageInfo): void => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      if (error !== null) {
        connection.close()
        reject(error)
      } else resolve(info!)
    }
    const onAbort = (): void => finish(new Error(abortReason(signal)))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })

    // A server that answers without end (250- continuation lines, say) is cut past a bound:
    // nodemailer keeps a multi-line answer whole until its last line. Its data handler is read
    // from this property each time a socket is attached (also after STARTTLS).
    const raw = connection as unknown as { _onSocketData: (chunk: Buffer) => void }
    const handle = raw._onSocketData
    let received = 0
    raw._onSocketData = (chunk) => {
      received += chunk.length
      if (received > MAX_ANSWER_BYTES) {
        finish(new Error(`the mail server sent more than ${MAX_ANSWER_BYTES} bytes of answers`))
      } else handle(chunk)
    }

    // Kept for the connection's life: a late error after the outcome must not go unhandled.
    connection.on('error', (error: Error) => finish(error))
    connection.on('end', () => finish(new Error('the mail server closed the connection')))
    connection.connect(() => {
      const send = (): void =>
        connection.send(envelope, message, (error, info) => finish(error, info))
      // As nodemailer's own transport does: log in when the server offers AUTH (untyped field).
      const offersAuth = (connection as unknown as { allowsAuth?: boolean }).allowsAuth === true
      if (auth?.user !== undefined && offersAuth) {
        connection.login(auth, (error) => (error ? finish(error) : send()))
      } else send()
    })
  })
}

export function mailSender(
  config: MailConfig,
  timeZone: string,
  regions: readonly CountryCode[] = ['MX'],
): Sender {
  const options = parseConnectionUrl(config.smtpUrl)
  const auth = options.auth as SMTPConnection.Credentials | undefined
  const from = addressOf(config.from)
  return {
    async send(job, signal, recipients) {
      const done = job.kind === 'request' ? job.delivery.doneRecipients : []
      const refusedBefore = job.kind === 'request' ? job.delivery.refusedRecipients : []
      const to = without(without(config.to, done), refusedBefore)
      if (to.length === 0) {
        return refusedBefore.length > 0
          ? { kind: 'rejected', reason: `rechazado para ${refusedBefore.join(', ')}`, proven: true }
          : { kind: 'delivered' }
      }
      const message = await compose(job, config, timeZone, regions)
      const connection = new SMTPConnection({
        ...options,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
      let info: SMTPConnection.SentMessageInfo
      try {
        info = await session(connection, auth, { from, to }, message, signal)
      } catch (error) {
        if (signal.aborted) return { kind: 'channel-fault', reason: abortReason(signal) }
        return failedSession(error as SmtpError, { to, done, refusedBefore, config, recipients })
      }
      connection.quit()
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
  info: SMTPConnection.SentMessageInfo,
  { done, refusedBefore, recipients }: Recipients,
): Promise<Outcome> {
  const refusals = (info.rejectedErrors ?? []) as SmtpError[]
  const refusedNow = refusals.filter((error) => (error.responseCode ?? 0) >= 500)
  const later = refusals.filter((error) => (error.responseCode ?? 0) < 500)
  const nowDone = [...done, ...info.accepted.map(String)]
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
    const refusals = error.rejectedErrors as SmtpError[]
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
