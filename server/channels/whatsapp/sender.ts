// The WhatsApp channel: each request is sent to its rep (assign-rep.ts chose them when it was
// stored) as an approved template message through the WhatsApp Cloud API, with plain fetch:
//   POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages, Authorization: Bearer {token}
//   https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages
//   https://developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates
// Who is to blame follows the Cloud API's error codes, not its HTTP statuses, as Meta advises
// (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes; decision 024):
// a token that expired (190), the throughput (130429), a template that is not approved, any 5xx
// or no answer hold the channel; a rep's number that cannot receive (131026) or that the
// business blocked (130403) is that rep's, and the request goes on to the next rep at once; the
// pair rate limit (131056) is that rep's for a few seconds: only this request waits, the others
// go on.
import type { WhatsAppConfig } from '../../settings/index.js'
import type { Channel, LeadStore, WhatsAppRoute } from '../../store/index.js'
import type { DemoRequestRecord } from '../../store/index.js'
import { parsePhone, phoneForPeople } from '../../settings/index.js'
import { abortReason, type Outcome, type Sender } from '../../queue/index.js'
import { bounded, errorText, visibleControls } from '../../text/index.js'
import { afterWorkingMinutes } from '../../settings/index.js'
import type { CountryCode } from 'libphonenumber-js/max'

/** The most of an answer read: a Cloud API answer is a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024

/**
 * Codes that say this rep's number cannot receive the message, and that a retry to it would not
 * change (Meta: "do not retry"): the next rep takes it.
 */
const RECIPIENT_CODES = new Set([
  130403, // the business blocked this user: unblock them to message them again
  131021, // recipient cannot be the sender
  131026, // message undeliverable (no WhatsApp, old version, terms not accepted)
  131030, // recipient not in the allowed list (a test number)
  131049, // not delivered, to keep the ecosystem healthy
  131050, // the user stopped such messages
])
// 131047 (re-engagement: more than 24 hours since the user last wrote) is not among them. Meta's
// remedy for it is a template message, and every message this sender posts is one: a 131047 to a
// template says that the Cloud API did not take it as one (the template or the number's setup),
// which every send would meet, not that this rep cannot receive it. So it holds the channel like
// a template not approved; should other requests go through meanwhile, the worker makes it this
// request's own fault (decision 024).
/**
 * (Business Account, Consumer Account) pair rate limit hit: too many messages to this one number
 * in a short time; Meta: wait and retry to send to the same number, "you can still send to a
 * different number without waiting". The pair rate is about one message every 6 seconds to one
 * user (https://developers.facebook.com/documentation/business-messaging/whatsapp/throughput,
 * "pair rate limit"), so this request waits at least that long, on its own.
 */
const PAIR_RATE_CODE = 131056
const PAIR_RATE_WAIT_MS = 6_000
/** A parameter of this body the API refuses (132018): the request's own, not the channel's. */
const BODY_CODES = new Set([132018])

/** The longest each parameter may be: the template's body, with its text, stays far below 1024. */
const PARAMETER_LENGTH = { name: 60, group: 60, phone: 80, contact: 10, comments: 160 }

/**
 * A text as a template parameter takes it: no line breaks or tabs, never more than four spaces
 * in a row (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes, 132018),
 * never empty, bounded; invisible characters shown as the listing shows them.
 */
function templateText(text: string, max: number, empty = '—'): string {
  const flat = visibleControls(text).replace(/\s+/gu, ' ').trim()
  if (flat === '') return empty
  if (flat.length <= max) return flat
  return `${flat.slice(0, max - 1).trimEnd()}…`
}

/** The comments' first words, cut at a word, not in the middle of one. */
function firstWords(text: string, max: number): string {
  const flat = templateText(text, Number.MAX_SAFE_INTEGER, 'sin comentarios')
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/**
 * The template's body parameters, in order: name, group, phone, contact number, comments.
 * @internal its tests use it too
 */
export function templateParameters(
  record: DemoRequestRecord,
  regions: readonly CountryCode[],
): string[] {
  const value = (name: string) => record.params[name] ?? ''
  const written = value('user_phone')
  return [
    templateText(value('user_name'), PARAMETER_LENGTH.name),
    templateText(value('user_group'), PARAMETER_LENGTH.group),
    templateText(phoneForPeople(written, parsePhone(written, regions)), PARAMETER_LENGTH.phone),
    templateText(value('contact_number'), PARAMETER_LENGTH.contact),
    firstWords(value('message'), PARAMETER_LENGTH.comments),
  ]
}

/** The messages request's body for one rep. */
function messageBody(
  config: Pick<WhatsAppConfig, 'template' | 'language'>,
  rep: string,
  parameters: readonly string[],
): string {
  return JSON.stringify({
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    // Digits with the country code, no +.
    to: rep.replace(/\D/g, ''),
    type: 'template',
    template: {
      name: config.template,
      language: { code: config.language },
      components: [
        { type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) },
      ],
    },
  })
}

/** Reads at most MAX_ANSWER_BYTES of an answer: a peer that sends more costs no memory. */
async function boundedText(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (reader === undefined) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined)
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

interface GraphAnswer {
  messages?: { id?: unknown; message_status?: unknown }[]
  error?: { code?: unknown; message?: unknown; error_data?: { details?: unknown } }
}

const parseAnswer = (text: string): GraphAnswer | null => {
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? (parsed as GraphAnswer) : null
  } catch {
    return null
  }
}

type Sent =
  | { kind: 'sent'; wamid: string; held: boolean }
  | { kind: 'refused'; reason: string }
  | Exclude<Outcome, { kind: 'delivered' }>

/** One POST to the messages endpoint, judged. */
async function post(config: WhatsAppConfig, body: string, signal: AbortSignal): Promise<Sent> {
  let response: Response
  let text: string
  try {
    response = await fetch(
      `${config.apiUrl}/${encodeURIComponent(config.phoneNumberId)}/messages`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.token}`,
          'content-type': 'application/json',
          'user-agent': 'gaspre-lead-server',
        },
        body,
        redirect: 'manual',
        signal,
      },
    )
    text = await boundedText(response)
  } catch (error) {
    if (signal.aborted) return { kind: 'channel-fault', reason: abortReason(signal) }
    const cause = (error as { cause?: unknown }).cause
    return { kind: 'channel-fault', reason: bounded(errorText(cause ?? error)) }
  }
  const answer = parseAnswer(text)
  const wamid = answer?.messages?.[0]?.id
  if (response.status >= 200 && response.status < 300) {
    // `held_for_quality_assessment`: Meta holds it to check its quality, then sends or drops it
    // (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages, message_status).
    const held = answer?.messages?.[0]?.message_status === 'held_for_quality_assessment'
    return typeof wamid === 'string' && wamid !== ''
      ? { kind: 'sent', wamid, held }
      : { kind: 'channel-fault', reason: `HTTP ${response.status} sin id de mensaje` }
  }
  const code = typeof answer?.error?.code === 'number' ? answer.error.code : null
  if (code === null) return { kind: 'channel-fault', reason: `HTTP ${response.status}` }
  const words = [answer?.error?.message, answer?.error?.error_data?.details]
    .filter((each): each is string => typeof each === 'string' && each !== '')
    .join(': ')
  const reason = bounded(
    `WhatsApp ${code}${words !== '' ? `: ${words}` : ''} (HTTP ${response.status})`,
  )
  if (RECIPIENT_CODES.has(code)) return { kind: 'refused', reason }
  if (code === PAIR_RATE_CODE) return { kind: 'retry', reason, waitMs: PAIR_RATE_WAIT_MS }
  if (BODY_CODES.has(code)) return { kind: 'rejected', reason, proven: false }
  return { kind: 'channel-fault', reason }
}

interface WhatsAppSenderOptions {
  store: LeadStore
  timeZone: string
  regions: readonly CountryCode[]
  /** Channels that carry the mail when a rep's number refuses the message (the mail). */
  carriers: readonly Channel[]
  /** The clock of the escalation (a seam for tests); Date.now otherwise. */
  now?: () => number
}

export function whatsappSender(config: WhatsAppConfig, options: WhatsAppSenderOptions): Sender {
  const { store } = options
  const now = options.now ?? Date.now
  return {
    async send(job, signal) {
      // The template carries requests only; notices go by mail and webhook (delivery.ts).
      if (job.kind === 'notice') return { kind: 'delivered', note: 'no aplica a WhatsApp' }
      const id = job.record.id
      let route: WhatsAppRoute | null = job.whatsapp
      if (route?.exhaustedAt != null) route = await store.whatsapp.startNewRound(id)
      if (route === null) {
        return {
          kind: 'rejected',
          reason: 'sin ruta de WhatsApp: guardada antes de activarla',
          proven: true,
        }
      }
      const parameters = templateParameters(job.record, options.regions)
      for (;;) {
        const sent = await post(config, messageBody(config, route.rep, parameters), signal)
        if (sent.kind === 'sent') {
          const at = now()
          await store.whatsapp.recordSent(id, route.step, {
            wamid: sent.wamid,
            at,
            escalateAt: afterWorkingMinutes(
              at,
              config.escalateAfterMinutes,
              config.workingHours,
              options.timeZone,
            ),
          })
          // The Cloud API took it; held by Meta, the rep has not got it yet (and may never):
          // the note says so, and its escalation moves it on if it stays unread.
          return {
            kind: 'delivered',
            note: sent.held
              ? `a ${route.rep}, que aún no lo recibe: Meta lo retiene para revisar su calidad`
              : `a ${route.rep}`,
          }
        }
        if (sent.kind !== 'refused') return sent
        const moved = await store.whatsapp.moveOn(id, route.step, {
          because: 'refused',
          failure: sent.reason,
          at: now(),
          carriers: options.carriers,
          escalateAfterMinutes: config.escalateAfterMinutes,
          requeue: false,
        })
        if (moved === null) return { kind: 'retry', reason: sent.reason }
        if (moved.next === null) {
          return {
            kind: 'rejected',
            reason: bounded(`ningún número de su ruta la recibe: ${sent.reason}`),
            proven: true,
          }
        }
        route = moved.route
      }
    },
  }
}
