// The real peers the delivery tests send to, in the test's own process: an SMTP server
// (smtp-server, with mailparser reading what arrived) that can refuse the login (535), answer
// 451 the first N times or to one message for as long as told, 452 or 550 for one recipient, 554
// for one message, or take its time;
// hostile mail servers that never greet, stall after DATA or answer without end; and a webhook
// receiver that verifies each signature with the standardwebhooks library and can answer any
// status, a redirect, or nothing at all.
import { createServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { Webhook } from 'standardwebhooks'

const smtpError = (code: number, text: string) =>
  Object.assign(new Error(text), { responseCode: code })

export interface SmtpPeer {
  /** With a user and password, which it checks while `authFails` says so. */
  url: string
  mails: ParsedMail[]
  /** Who each mail of `mails` was delivered to (RCPT TO), in the same order. */
  envelopes: string[][]
  /** Answer 451 to this many more messages. */
  failNext: number
  /** Every attempt that reached DATA, delivered or not. */
  attempts: number
  /** Recipients answered 550 at RCPT TO. */
  rejected: Set<string>
  /** Recipients answered 452 (mailbox busy) at RCPT TO, this many more times each. */
  busy: Map<string, number>
  /** Answer 535 to every login, as after a password was rotated. */
  authFails: boolean
  /** Messages answered 554 at the end of DATA. */
  refuses: (mail: ParsedMail) => boolean
  /** Messages answered 451 (try again later) at the end of DATA, each time they come. */
  defers: (mail: ParsedMail) => boolean
  /** How long it takes over each message, in ms. */
  delayMs: number
  /** Logins tried, refused or not. */
  logins: number
  close(): Promise<void>
}

/** An SMTP peer on `port` (any free one by default: a test that brings it up late names one). */
export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    url: '',
    mails: [],
    envelopes: [],
    failNext: 0,
    attempts: 0,
    rejected: new Set(),
    busy: new Map(),
    authFails: false,
    refuses: () => false,
    defers: () => false,
    delayMs: 0,
    logins: 0,
    close: async () => undefined,
  }
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    // A local peer: no reverse DNS lookup of 127.0.0.1 in each session's timings.
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      peer.logins++
      if (peer.authFails) {
        callback(smtpError(535, '5.7.8 Authentication credentials invalid'))
      } else callback(null, { user: auth.username ?? '' })
    },
    onRcptTo(address, _session, callback) {
      const busy = peer.busy.get(address.address) ?? 0
      if (peer.rejected.has(address.address)) {
        callback(smtpError(550, '5.1.1 No such user here'))
      } else if (busy > 0) {
        peer.busy.set(address.address, busy - 1)
        callback(smtpError(452, '4.2.1 Mailbox busy, try again later'))
      } else callback()
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        async (mail) => {
          peer.attempts++
          if (peer.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, peer.delayMs))
          if (peer.failNext > 0) {
            peer.failNext--
            callback(smtpError(451, '4.3.0 Try again later'))
            return
          }
          if (peer.defers(mail)) {
            callback(smtpError(451, '4.3.0 Try again later'))
            return
          }
          if (peer.refuses(mail)) {
            callback(smtpError(554, '5.6.0 Message content rejected'))
            return
          }
          peer.mails.push(mail)
          peer.envelopes.push(session.envelope.rcptTo.map((rcpt) => rcpt.address))
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  // smtp-server emits a client's dropped connection (ECONNRESET when a test closes a server
  // mid-send) as the server's 'error', which would otherwise be thrown: it is not the peer's.
  server.on('error', () => undefined)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: listening } = server.server.address() as AddressInfo
  peer.url = `smtp://avisos%40gaspre.mx:clave-actual@127.0.0.1:${listening}`
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return peer
}

/** How a hostile mail server behaves: it never greets, stalls after DATA, or answers forever. */
export type HostileBehaviour = 'never-greets' | 'stalls-after-data' | 'answers-forever'

export interface HostilePeer {
  url: string
  /** Connections open now. */
  open(): number
  /** Connections made in all. */
  connections: number
  close(): Promise<void>
}

/**
 * A mail server that takes a message and then misbehaves: it says nothing at all; it stalls
 * once the message is sent; or it answers `250-` continuation lines every `everyMs` (with
 * `lineBytes` of text each) and never a last line.
 */
export async function startHostileSmtpPeer(
  behaviour: HostileBehaviour,
  { everyMs = 200, lineBytes = 40 }: { everyMs?: number; lineBytes?: number } = {},
): Promise<HostilePeer> {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createTcpServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    if (behaviour === 'never-greets') return
    socket.write('220 hostile.test ESMTP\r\n')
    let inData = false
    let buffered = ''
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1')
      for (;;) {
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n')
          if (end === -1) return
          buffered = buffered.slice(end + 5)
          inData = false
          if (behaviour === 'stalls-after-data') return
          const timer = setInterval(() => {
            if (socket.destroyed) clearInterval(timer)
            else socket.write(`250-${'x'.repeat(lineBytes)}\r\n`)
          }, everyMs)
          socket.on('close', () => clearInterval(timer))
          return
        }
        const newline = buffered.indexOf('\r\n')
        if (newline === -1) return
        const line = buffered.slice(0, newline).toUpperCase()
        buffered = buffered.slice(newline + 2)
        if (line.startsWith('EHLO')) socket.write('250-hostile.test\r\n250 8BITMIME\r\n')
        else if (line.startsWith('DATA')) {
          inData = true
          socket.write('354 go ahead\r\n')
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n')
        else socket.write('250 OK\r\n')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    open: () => sockets.size,
    get connections() {
      return connections
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
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
  /**
   * Answers a verified post as it says, before `failNext`: a status, `redirect` (a 307 to
   * another path), `hang` (no answer at all), or undefined for the usual.
   */
  answer: (body: Record<string, unknown>) => number | 'redirect' | 'hang' | undefined
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
    answer: () => undefined,
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
      const chosen =
        status === 204 ? peer.answer(JSON.parse(payload) as Record<string, unknown>) : undefined
      if (chosen === 'hang') {
        peer.attempts.push({ id, status: 0 })
        return
      }
      if (chosen === 'redirect') {
        peer.attempts.push({ id, status: 307 })
        response.writeHead(307, { location: '/hooks/moved' }).end()
        return
      }
      if (chosen !== undefined) status = chosen
      else if (status === 204 && peer.failNext > 0) {
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

/** A test's mail server and webhook receiver: what a server with both channels delivers to. */
export interface Peers {
  smtp: SmtpPeer
  webhook: WebhookPeer
}

/** Starts both peers; each is closed when the test's `cleanups` are undone. */
export async function startPeers(cleanups: (() => Promise<unknown>)[]): Promise<Peers> {
  const smtp = await startSmtpPeer()
  const webhook = await startWebhookPeer()
  cleanups.push(
    () => smtp.close(),
    () => webhook.close(),
  )
  return { smtp, webhook }
}
