// The WhatsApp status webhook, at /api/whatsapp/webhook: Meta's App Dashboard registers it with a
// GET handshake (hub.mode=subscribe, hub.verify_token = WHATSAPP_VERIFY_TOKEN, answered with
// hub.challenge), then posts each message's statuses (sent, delivered, read, failed), signed
// with the app secret: X-Hub-Signature-256 is `sha256=` and the HMAC-SHA256 of the raw body.
// A post without a valid signature changes nothing. Statuses come in any order and more than
// once; the store (store/whatsapp.ts) keeps the earliest time of each, and a status of a message
// it does not know yet once.
//   https://developers.facebook.com/docs/graph-api/webhooks/getting-started
//   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/create-webhook-endpoint
//   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify'
import { NO_STORE } from '../../http/index.js'
import { sendText } from '../../http/index.js'
import type { MessageStatus } from '../../store/index.js'

/** @internal its tests use it too */
export const WHATSAPP_WEBHOOK_PATH = '/api/whatsapp/webhook'
/**
 * Meta batches statuses in posts of up to 3 MB, and drops a post that keeps failing after 7 days
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/overview,
 * "Payload size"): a post that size is taken whole.
 */
const BODY_LIMIT = 3 * 1024 * 1024
const STATUSES = new Set(['sent', 'delivered', 'read', 'failed'])

/** Whether `header` is `sha256=` and the HMAC-SHA256 of `body` with `secret`, compared in constant time. */
function validSignature(body: Buffer, header: unknown, secret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false
  const given = Buffer.from(header.slice('sha256='.length), 'hex')
  const expected = createHmac('sha256', secret).update(body).digest()
  return given.length === expected.length && timingSafeEqual(given, expected)
}

interface StatusPayload {
  entry?: { changes?: { field?: unknown; value?: { statuses?: unknown[] } }[] }[]
}

/** The statuses a post reports; anything else in it (incoming messages) is left alone. */
function statusesOf(payload: unknown): MessageStatus[] {
  const statuses: MessageStatus[] = []
  for (const entry of (payload as StatusPayload | null)?.entry ?? []) {
    for (const change of entry?.changes ?? []) {
      for (const raw of change?.value?.statuses ?? []) {
        const status = raw as {
          id?: unknown
          status?: unknown
          timestamp?: unknown
          errors?: { code?: unknown; title?: unknown; message?: unknown }[]
        }
        const seconds = Number(status.timestamp)
        if (typeof status.id !== 'string' || typeof status.status !== 'string') continue
        if (!STATUSES.has(status.status) || !Number.isFinite(seconds)) continue
        const error = status.errors?.[0]
        statuses.push({
          wamid: status.id,
          status: status.status as MessageStatus['status'],
          at: seconds * 1000,
          failure:
            error === undefined
              ? null
              : `WhatsApp ${String(error.code ?? '')}: ${String(error.title ?? error.message ?? '')}`.slice(
                  0,
                  300,
                ),
        })
      }
    }
  }
  return statuses
}

export interface WhatsAppWebhookOptions {
  verifyToken: string
  appSecret: string
  /** Records the statuses of a signed post. */
  receive: (statuses: MessageStatus[]) => Promise<void>
}

/**
 * Says a refusal once, then at most once a minute with how many there were: a flood of forged
 * posts costs lines, not megabytes, of log.
 */
function refusalLog() {
  let last = 0
  let unsaid = 0
  return (log: FastifyBaseLogger, event: string, message: string): void => {
    const now = Date.now()
    if (last !== 0 && now - last < 60_000) {
      unsaid++
      return
    }
    log.warn({ event, ...(unsaid > 0 && { alsoRefused: unsaid }) }, message)
    last = now
    unsaid = 0
  }
}

export const whatsappWebhook: FastifyPluginAsync<WhatsAppWebhookOptions> = async (app, options) => {
  const refused = refusalLog()
  // The signature is over the raw bytes: the body is kept as it came.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, body),
  )
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', NO_STORE)
  })

  app.get(WHATSAPP_WEBHOOK_PATH, async (request, reply) => {
    const query = request.query as Record<string, unknown>
    const token = query['hub.verify_token']
    const given = Buffer.from(typeof token === 'string' ? token : '')
    const expected = Buffer.from(options.verifyToken)
    const matches = given.length === expected.length && timingSafeEqual(given, expected)
    if (
      query['hub.mode'] !== 'subscribe' ||
      !matches ||
      typeof query['hub.challenge'] !== 'string'
    ) {
      refused(request.log, 'whatsapp-webhook-refused', 'WhatsApp webhook handshake refused')
      return sendText(reply, 403)
    }
    return reply.type('text/plain; charset=utf-8').send(query['hub.challenge'])
  })

  app.post(WHATSAPP_WEBHOOK_PATH, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    if (!validSignature(body, request.headers['x-hub-signature-256'], options.appSecret)) {
      refused(
        request.log,
        'whatsapp-webhook-forged',
        'WhatsApp status post without a valid X-Hub-Signature-256: ignored',
      )
      return sendText(reply, 401)
    }
    let payload: unknown
    try {
      payload = JSON.parse(body.toString('utf8'))
    } catch {
      return sendText(reply, 400)
    }
    await options.receive(statusesOf(payload))
    return reply.code(200).send()
  })
}
