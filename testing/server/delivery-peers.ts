// The real peers the delivery tests send to, in the test's own process: an SMTP server
// (smtp-server, with mailparser reading what arrived) that can answer 451 the first N times
// and 550 for one recipient, and a webhook receiver that verifies each signature with the
// standardwebhooks library and can answer 503 (or any status) the first N times.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { Webhook } from 'standardwebhooks'

const smtpError = (code: number, text: string) =>
  Object.assign(new Error(text), { responseCode: code })

export interface SmtpPeer {
  url: string
  mails: ParsedMail[]
  /** Answer 451 to this many more messages. */
  failNext: number
  /** Every attempt that reached DATA, delivered or not. */
  attempts: number
  /** Recipients answered 550 at RCPT TO. */
  rejected: Set<string>
  close(): Promise<void>
}

/** An SMTP peer on `port` (any free one by default: a test that brings it up late names one). */
export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    url: '',
    mails: [],
    failNext: 0,
    attempts: 0,
    rejected: new Set(),
    close: async () => undefined,
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // A local peer: no reverse DNS lookup of 127.0.0.1 in each session's timings.
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (peer.rejected.has(address.address)) {
        callback(smtpError(550, '5.1.1 No such user here'))
      } else callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          peer.attempts++
          if (peer.failNext > 0) {
            peer.failNext--
            callback(smtpError(451, '4.3.0 Try again later'))
            return
          }
          peer.mails.push(mail)
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  peer.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return peer
}

export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

export interface Posted {
  id: string
  body: Record<string, unknown>
  headers: Record<string, string>
}

export interface WebhookPeer {
  url: string
  /** Requests whose signature verified and that were answered 2xx. */
  received: Posted[]
  /** Every request, verified or not, with what it was answered. */
  attempts: { id: string; status: number }[]
  /** Answer this status to the next `failNext` requests. */
  failNext: number
  failStatus: number
  close(): Promise<void>
}

export async function startWebhookPeer(secret = WEBHOOK_SECRET): Promise<WebhookPeer> {
  const verifier = new Webhook(secret)
  const peer: WebhookPeer = {
    url: '',
    received: [],
    attempts: [],
    failNext: 0,
    failStatus: 503,
    close: async () => undefined,
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const payload = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      )
      const id = headers['webhook-id'] ?? ''
      let status = 204
      try {
        verifier.verify(payload, headers)
      } catch {
        status = 401
      }
      if (status === 204 && peer.failNext > 0) {
        peer.failNext--
        status = peer.failStatus
      }
      peer.attempts.push({ id, status })
      if (status === 204) {
        peer.received.push({ id, body: JSON.parse(payload) as Record<string, unknown>, headers })
      }
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  peer.url = `http://127.0.0.1:${port}/hooks/leads`
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return peer
}
