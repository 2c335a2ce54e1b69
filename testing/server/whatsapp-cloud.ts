// A stand-in for the WhatsApp Cloud API, started by the tests in their own process, that keeps
// to Meta's documented contract: `POST /{version}/{phone-number-id}/messages` with
// `Authorization: Bearer {token}` and a template message body, answered with a `wamid.` id, or
// with a Graph API error ({"error":{"message","type","code","error_data","fbtrace_id"}}) and the
// Cloud API's codes: 190 for an expired token, 130429 for the throughput, 131026 for a number
// that cannot receive, 132018 for a parameter with a line break, a tab or five spaces in a row;
// and, per number as a test sets it, 130403 (the business blocked this user), 131056 (the pair
// rate limit), 131047 (re-engagement), 190 or 131026, each with Meta's documented title and
// details. A message it takes may be answered `held_for_quality_assessment`, as Meta does for
// one it checks before it sends or drops it.
// It then posts status callbacks to the server's webhook as Meta does, signed with the app
// secret (X-Hub-Signature-256), or with a forged signature, or none.
//   https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages
//   https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes
//   https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/status
import { createHmac, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const CLOUD_VERSION = 'v23.0'
const PHONE_NUMBER_ID = '106540352242922'
const CLOUD_TOKEN = 'EAAGm0PX4ZCpsBAtoken-de-prueba'
const APP_SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'
export const VERIFY_TOKEN = 'verifica-gaspre-2026'
const TEMPLATE = 'solicitud_demo_nueva'

/** What a server is told of this stand-in's account, as its settings hold it (WhatsAppConfig). */
export const STAND_IN_ACCOUNT = {
  phoneNumberId: PHONE_NUMBER_ID,
  token: CLOUD_TOKEN,
  template: TEMPLATE,
  language: 'es_MX',
  verifyToken: VERIFY_TOKEN,
  appSecret: APP_SECRET,
}

/** The same, as the environment of `npm start` says it (docs/production.md). */
export const STAND_IN_ENV = {
  WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
  WHATSAPP_TOKEN: CLOUD_TOKEN,
  WHATSAPP_TEMPLATE: TEMPLATE,
  WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  WHATSAPP_APP_SECRET: APP_SECRET,
}

export interface CloudMessage {
  to: string
  wamid: string
  /** The template's body parameters, in order. */
  parameters: string[]
  template: string
  language: string
  /** performance.now() when it arrived, for the benchmark. */
  at: number
}

export interface CloudStatus {
  wamid: string
  status: 'sent' | 'delivered' | 'read' | 'failed'
  /** Seconds since the epoch, as Meta sends it (a string). */
  timestamp: number
  recipient?: string
  error?: { code: number; title: string }
}

export interface CloudApiStandIn {
  /** The versioned base: WHATSAPP_API_URL. */
  url: string
  messages: CloudMessage[]
  /** Every request, answered or not: its status and error code. */
  attempts: { status: number; code: number | null }[]
  /** Answer 401 / 190 (the token expired) to every request. */
  tokenExpired: boolean
  /** Answer 400 / 130429 (throughput reached) to every request. */
  throttled: boolean
  /** Recipients (digits) answered 400 / 131026: the number cannot receive. */
  unreachable: Set<string>
  /** The error a message to this number (digits) is answered with now, if any. */
  errorFor: (to: string) => DocumentedError | undefined
  /** Answer messages it takes with `message_status: held_for_quality_assessment`. */
  holdsForQuality: boolean
  /** Waits this long before it answers a message it took (its id known, not yet told). */
  answerDelayMs: number
  /** Told of each message it took. */
  onMessage: (message: CloudMessage) => void
  /**
   * Posts statuses to `webhookUrl` as Meta does, in a batch with `inbound` text messages when
   * given; resolves with the webhook's answer.
   */
  postStatuses(
    webhookUrl: string,
    statuses: readonly CloudStatus[],
    signature?: 'valid' | 'forged' | 'none',
    batch?: { inbound?: readonly string[] },
  ): Promise<number>
  close(): Promise<void>
}

/** The errors a test can have a number answered with (errorFor). */
export type DocumentedError = 130403 | 131056 | 131047 | 190 | 131026

/**
 * Each as Meta documents it: HTTP status, title (in `message`, after the code) and details
 * (https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes).
 */
const DOCUMENTED: Record<DocumentedError, { status: number; title: string; details: string }> = {
  130403: {
    status: 400,
    title: 'Business blocked user',
    details: 'Unable to deliver the message. This business has blocked the end user on WhatsApp',
  },
  131056: {
    status: 400,
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  131047: {
    status: 400,
    title: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  190: {
    status: 401,
    title: 'Error validating access token',
    details: 'The access token has expired',
  },
  131026: {
    status: 400,
    title: 'Message undeliverable',
    details: 'Unable to deliver message.',
  },
}

const graphError = (code: number, message: string, details: string, type = 'OAuthException') => ({
  error: {
    message: `(#${code}) ${message}`,
    type,
    code,
    error_data: { messaging_product: 'whatsapp', details },
    fbtrace_id: randomBytes(8).toString('base64url'),
  },
})

/** What Meta refuses in a text parameter (error 132018). */
const badParameter = (text: unknown): boolean =>
  typeof text !== 'string' || text === '' || /[\n\t]| {5}/.test(text)

export async function startCloudApi(): Promise<CloudApiStandIn> {
  const api: CloudApiStandIn = {
    url: '',
    messages: [],
    attempts: [],
    tokenExpired: false,
    throttled: false,
    unreachable: new Set(),
    errorFor: () => undefined,
    holdsForQuality: false,
    answerDelayMs: 0,
    onMessage: () => undefined,
    postStatuses: async () => 0,
    close: async () => undefined,
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const answer = (status: number, body: object, code: number | null = null) => {
        api.attempts.push({ status, code })
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      }
      if (
        request.method !== 'POST' ||
        request.url !== `/${CLOUD_VERSION}/${PHONE_NUMBER_ID}/messages`
      ) {
        return answer(
          400,
          graphError(
            100,
            'Invalid parameter',
            `unknown path ${request.url}`,
            'GraphMethodException',
          ),
          100,
        )
      }
      if (api.tokenExpired || request.headers.authorization !== `Bearer ${CLOUD_TOKEN}`) {
        return answer(
          401,
          graphError(
            190,
            'Error validating access token: Session has expired on Friday, 27-Nov-26 08:00:00 PST.',
            'The access token has expired',
          ),
          190,
        )
      }
      let body: {
        messaging_product?: unknown
        to?: unknown
        type?: unknown
        template?: {
          name?: unknown
          language?: { code?: unknown }
          components?: { type?: unknown; parameters?: { type?: unknown; text?: unknown }[] }[]
        }
      }
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body
      } catch {
        return answer(400, graphError(100, 'Invalid parameter', 'the body is not JSON'), 100)
      }
      const to = typeof body.to === 'string' ? body.to : ''
      const parameters = body.template?.components?.find((each) => each.type === 'body')?.parameters
      if (
        (request.headers['content-type'] ?? '').split(';')[0] !== 'application/json' ||
        body.messaging_product !== 'whatsapp' ||
        body.type !== 'template' ||
        !/^\d{8,15}$/.test(to) ||
        body.template?.name !== TEMPLATE ||
        typeof body.template.language?.code !== 'string' ||
        parameters === undefined ||
        parameters.some((each) => each.type !== 'text')
      ) {
        return answer(400, graphError(100, 'Invalid parameter', 'not a template message'), 100)
      }
      if (parameters.some((each) => badParameter(each.text))) {
        return answer(
          400,
          graphError(
            132018,
            "There's an issue with the parameters in your template",
            'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
          ),
          132018,
        )
      }
      if (api.throttled) {
        return answer(
          400,
          graphError(130429, 'Rate limit hit', 'Cloud API message throughput has been reached.'),
          130429,
        )
      }
      const documented = api.errorFor(to)
      if (documented !== undefined) {
        const { status, title, details } = DOCUMENTED[documented]
        return answer(status, graphError(documented, title, details), documented)
      }
      if (api.unreachable.has(to)) {
        return answer(
          400,
          graphError(131026, 'Message undeliverable', 'Unable to deliver message.'),
          131026,
        )
      }
      const wamid = `wamid.${randomBytes(24).toString('base64')}`
      const message: CloudMessage = {
        to,
        wamid,
        parameters: parameters.map((each) => String(each.text)),
        template: String(body.template.name),
        language: body.template.language.code,
        at: performance.now(),
      }
      api.messages.push(message)
      api.onMessage(message)
      const accepted = () =>
        answer(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: to, wa_id: to }],
          messages: [
            {
              id: wamid,
              message_status: api.holdsForQuality ? 'held_for_quality_assessment' : 'accepted',
            },
          ],
        })
      if (api.answerDelayMs > 0) setTimeout(accepted, api.answerDelayMs)
      else accepted()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  api.url = `http://127.0.0.1:${port}/${CLOUD_VERSION}`
  api.postStatuses = async (webhookUrl, statuses, signature = 'valid', batch = {}) => {
    // An inbound text message as the messages webhook carries it (its text up to 4,096 characters).
    const inbound = (batch.inbound ?? []).map((text, i) => ({
      value: {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID },
        contacts: [{ profile: { name: 'Cliente' }, wa_id: '5215544444444' }],
        messages: [
          {
            from: '5215544444444',
            id: `wamid.entrante-${i}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: text },
          },
        ],
      },
      field: 'messages',
    }))
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID },
                statuses: statuses.map((status) => ({
                  id: status.wamid,
                  status: status.status,
                  timestamp: String(status.timestamp),
                  recipient_id: status.recipient ?? '5215511111111',
                  ...(status.status !== 'failed' && {
                    pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                  }),
                  ...(status.error !== undefined && {
                    errors: [
                      {
                        code: status.error.code,
                        title: status.error.title,
                        message: status.error.title,
                        error_data: { details: status.error.title },
                      },
                    ],
                  }),
                })),
              },
              field: 'messages',
            },
            ...inbound,
          ],
        },
      ],
    })
    const secret = signature === 'forged' ? 'not-the-app-secret-000000000000' : APP_SECRET
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (signature !== 'none') {
      headers['x-hub-signature-256'] =
        `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
    }
    const response = await fetch(webhookUrl, { method: 'POST', headers, body })
    await response.body?.cancel()
    return response.status
  }
  api.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return api
}
