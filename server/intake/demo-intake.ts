// The demo-request intake: the site's own endpoints for the form, served on its origin when the
// site was built without an e-mail service key (own-server mode). Our own door (door.ts: JSON
// with an Idempotency-Key) is what an own-server page sends to. Beside it, the e-mail service's
// endpoints keep answering, for pages loaded before a deploy and for the no-script form: they
// speak that API's protocol (EmailJS v1.0), exactly what @emailjs/browser 4.4.1 sends is
// accepted, and the answer is the real service's, 200 'OK' or a 4xx with one sentence of text.
// An accepted request is committed to the store before the 200 (demoRequests.accept,
// demo-requests/demo-requests.ts), and the delivery worker mails and posts it. Past the total ceiling a request is held (stored, not delivered) up
// to a cap of its own, and only past that refused; a refusal that repeats is logged once, then
// summarised.
import rateLimit from '@fastify/rate-limit'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import {
  CONTACT_NUMBER_PARAM,
  CONTROL_FIELDS,
  HONEYPOT_FIELD,
  POSTED_RESULT_IDS,
  SEND_FORM_PATH,
  SEND_PATH,
  newContactNumber,
} from '../../src/contract/demo-request.js'
import { refusals } from '../../src/contract/lead-server-text.js'
import { clientKey } from '../http/index.js'
import { FloodEpisodes } from './flood-episodes.js'
import type { ServerLimits } from './limits.js'
import { bounded } from '../text/index.js'
import { MAX_ID_LENGTH, checkTemplateParams, withCleanAttribution } from './demo-request-check.js'
import { newRecord, type AlsoWrite, type DemoRequestRecord } from '../store/index.js'
import {
  demoDoor,
  doorErrorText,
  doorRefusal,
  isDoor,
  type DoorOptions,
  type Kept,
} from './door.js'
import { StoreWriteError } from '../store/index.js'
import { RepeatedLines } from '../http/index.js'
import { countedInSummary } from '../http/index.js'
import { NO_STORE } from '../http/index.js'
import { TotalCeiling } from './total-ceiling.js'
import { clientErrorStatus, sendText } from '../http/index.js'
import type { DemoRequests } from '../demo-requests/index.js'
import type { Bookings } from '../booking/index.js'

export { SEND_FORM_PATH, SEND_PATH }
export const BODY_LIMIT = 50 * 1024
const ID = /^[\w.-]+$/

const MESSAGES = {
  publicKey: 'The Public Key is required. Send it as user_id.',
  serviceId: 'The service ID is required. Send it as service_id.',
  templateId: 'The template ID is required. Send it as template_id.',
  templateParams: 'The template params must be an object.',
  badId: 'The service ID, template ID and Public Key may hold only letters, digits, _ . and -.',
  tooLarge: `The request body is too large: the limit is ${BODY_LIMIT / 1024} KB.`,
  badJson: 'The request body is not valid JSON.',
  badForm: 'The request body is not valid multipart form data.',
  sendType: 'Unsupported content type: send JSON with Content-Type application/json.',
  formType: 'Unsupported content type: send form data with Content-Type multipart/form-data.',
  notStored: 'The message could not be stored. Please try again.',
  outboxFull: 'The message could not be stored: the store is full. Please try again later.',
  noSpace:
    'The message could not be stored: the server is out of disk space. Please try again later.',
} as const

const CONTROL_FIELD_NAMES: ReadonlySet<string> = new Set(CONTROL_FIELDS)

/**
 * A browser running no script posts the demo form here itself. It is answered with the home page
 * (Post/Redirect/Get), whose section with this id says how it went: never a bare text page.
 * @internal its tests use it too
 */
export const POSTED_PAGES = {
  sent: `/#${POSTED_RESULT_IDS.sent}`,
  failed: `/#${POSTED_RESULT_IDS.failed}`,
} as const

/**
 * Whether a browser says the request comes from a page of another site. Sec-Fetch-Site is the
 * browser's own word; Origin is checked against the host the request was sent to when it is
 * missing. A client that sends neither (an old browser, a script) is judged by the rest.
 */
function isCrossSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site']
  if (fetchSite !== undefined) return fetchSite !== 'same-origin' && fetchSite !== 'none'
  const origin = request.headers.origin
  if (origin === undefined) return false
  try {
    return new URL(origin).host !== request.host
  } catch {
    return true // "null" (a sandboxed or privacy-redirected page) or garbage
  }
}

const isNavigation = (request: FastifyRequest): boolean =>
  request.headers['sec-fetch-mode'] === 'navigate' ||
  (request.headers['sec-fetch-mode'] === undefined &&
    (request.headers.accept ?? '').includes('text/html'))

/** How the result of a send is told: as text to the SDK, as a page to a navigating browser. */
type Answer = (reply: FastifyReply, status: number, text?: string) => FastifyReply

const answerAsText: Answer = sendText
const answerAsPage: Answer = (reply, status) =>
  reply.redirect(status === 200 ? POSTED_PAGES.sent : POSTED_PAGES.failed, 303)

interface SendRequest {
  userId: unknown
  serviceId: unknown
  templateId: unknown
  templateParams: unknown
}

const mediaType = (request: FastifyRequest): string =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''

const present = (value: unknown): value is string => typeof value === 'string' && value !== ''

const validId = (value: string): boolean => value.length <= MAX_ID_LENGTH && ID.test(value)

/**
 * Template params as the page sends them: text. A number is refused rather than written out, as
 * JSON's numbers lose digits past 2^53 (12345678901234567890 would be stored as
 * 12345678901234567000).
 */
function templateParams(value: unknown): Record<string, string> | string {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) return MESSAGES.templateParams
  const params: [string, string][] = []
  for (const [name, param] of Object.entries(value)) {
    if (typeof param !== 'string') return refusals.notText
    params.push([name, param])
  }
  // fromEntries defines own properties, so a "__proto__" param stays plain data.
  return Object.fromEntries(params)
}

/** Parses the multipart body with the platform's own (undici) form-data parser. */
async function formFields(request: FastifyRequest): Promise<Map<string, string> | null> {
  const body = request.body
  if (!Buffer.isBuffer(body)) return null
  try {
    // A copy backed by a plain ArrayBuffer, as the fetch types require (≤ 50 KB).
    const form = await new Response(Uint8Array.from(body), {
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    }).formData()
    const fields = new Map<string, string>()
    // Files are not template params: the demo form has none, and they are not stored.
    // Multipart encoding turns every line break into CRLF; store them as typed.
    for (const [name, value] of form) {
      if (typeof value === 'string') fields.set(name, value.replace(/\r\n/g, '\n'))
    }
    return fields
  } catch {
    return null
  }
}

/**
 * What a request the store refused is answered: never 200, and the log says why (without the
 * visitor), unless `logged` is false (a flood's, already counted in a summary).
 */
function storageFailed(
  request: FastifyRequest,
  record: DemoRequestRecord,
  error: unknown,
  logged = true,
): Kept {
  const failure = error instanceof StoreWriteError ? error.failure : 'write-failed'
  if (logged) {
    request.log.error(
      {
        event: 'demo-request-not-stored',
        failure,
        id: record.id,
        contact: record.params.contact_number,
        err: error,
      },
      `demo-request ${record.id} NOT stored: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (failure === 'full')
    return { kept: false, status: 507, text: MESSAGES.outboxFull, reason: 'full' }
  if (failure === 'no-space') {
    return { kept: false, status: 507, text: MESSAGES.noSpace, reason: 'no-space' }
  }
  return { kept: false, status: 500, text: MESSAGES.notStored, reason: 'not-stored' }
}

interface IntakeOptions {
  /** Where each accepted request goes: stored (or held), then delivered. */
  demoRequests: Pick<DemoRequests, 'accept' | 'hold' | 'floodBegan' | 'floodGrew'>
  /** Sends accepted per client per minute, stored per minute in all, held past that at most. */
  limits: Pick<ServerLimits, 'rateLimitPerMinute' | 'totalLimitPerMinute' | 'heldLimit'>
  /** Our own door (door.ts), when the build gives the form's messages for its answers. */
  door?: Omit<DoorOptions, 'bookings'>
  /** The booking of a meeting with the request's rep, when reps have calendars (decision 026). */
  bookings?: Pick<Bookings, 'offer'> | null
}

export const demoIntake: FastifyPluginAsync<IntakeOptions> = async (app, options) => {
  const { demoRequests } = options
  const { totalLimitPerMinute: totalLimit, heldLimit } = options.limits
  const ceiling = new TotalCeiling(totalLimit)
  const episodes = new FloodEpisodes()
  /** Whether the last request past the ceiling found the hold full: said once, not per request. */
  let holdFull = false
  const repeated = new RepeatedLines()
  app.addHook('onClose', async () => repeated.close())

  /**
   * Logs a refusal the first time in a minute and counts it otherwise, so that a flood of them
   * writes a line a minute; the request then writes no line of its own (request-log.ts).
   */
  const logRefusal = (
    request: FastifyRequest,
    event: string,
    what: string,
    fields: Record<string, unknown>,
    message: string,
  ): void => {
    if (repeated.admit(event, { what, level: 'warn', log: app.log })) {
      request.log.warn({ event, ...fields }, message)
    } else countedInSummary(request)
  }

  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', NO_STORE)
    // Another site's page cannot file requests through its visitors' browsers.
    if (isCrossSite(request)) {
      const origin = request.headers.origin
      logRefusal(
        request,
        'demo-request-cross-site',
        'demo requests from another site refused',
        { origin: origin === undefined ? null : bounded(origin) },
        'demo request from another site refused',
      )
      if (isDoor(request)) return doorRefusal(reply, 403, refusals.crossSite)
      return sendText(reply, 403, refusals.crossSite)
    }
    return undefined
  })
  // Only JSON and multipart bodies are parsed here; anything else is a 415 from Fastify.
  app.removeContentTypeParser('text/plain')
  // After the no-store hook above, so a 429 carries it too. One budget per client address
  // (request.ip: the socket's, or the proxy's X-Forwarded-For when TRUST_PROXY is set) shared
  // by every route of this plugin: the two sending endpoints.
  await app.register(rateLimit, {
    max: options.limits.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => clientKey(request.ip),
    onExceeded: (request) =>
      logRefusal(
        request,
        'demo-request-rate-limited',
        'demo requests refused with 429 past DEMO_RATE_LIMIT_PER_MINUTE',
        {},
        'demo request refused with 429: its client sent more than DEMO_RATE_LIMIT_PER_MINUTE',
      ),
  })
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  )

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = clientErrorStatus(error)
    if (status === null) request.log.error({ err: error }, 'intake failed')
    // A visitor without scripts is shown the page that offers other ways to reach sales.
    if (request.routeOptions.url === SEND_FORM_PATH && isNavigation(request)) {
      return answerAsPage(reply, status ?? 500)
    }
    if (isDoor(request)) return doorRefusal(reply, status ?? 500, doorErrorText(status))
    if (status === null) {
      return sendText(reply, 500, MESSAGES.notStored)
    }
    if (status === 413) return sendText(reply, 413, MESSAGES.tooLarge)
    if (status === 415) {
      const form = request.routeOptions.url === SEND_FORM_PATH
      return sendText(reply, 415, form ? MESSAGES.formType : MESSAGES.sendType)
    }
    if (error.code?.startsWith('FST_ERR_CTP_') === true && status === 400) {
      return sendText(reply, 400, MESSAGES.badJson)
    }
    return sendText(reply, status)
  })

  async function accept(
    request: FastifyRequest,
    reply: FastifyReply,
    input: SendRequest,
    answer: Answer = answerAsText,
  ) {
    const params = templateParams(input.templateParams)
    if (!present(input.userId)) return answer(reply, 400, MESSAGES.publicKey)
    if (!present(input.serviceId)) return answer(reply, 400, MESSAGES.serviceId)
    if (!present(input.templateId)) return answer(reply, 400, MESSAGES.templateId)
    if (![input.userId, input.serviceId, input.templateId].every(validId)) {
      return answer(reply, 400, MESSAGES.badId)
    }
    if (typeof params === 'string') return answer(reply, 400, params)

    // A filled bot trap is told it succeeded, on every path, and nothing is stored.
    if (present(params[HONEYPOT_FIELD])) {
      logRefusal(
        request,
        'demo-request-bot',
        'demo requests with the bot trap filled, not stored',
        {},
        'demo request with the bot trap filled: not stored',
      )
      return answer(reply, 200, 'OK')
    }
    // An empty trap, as a person leaves it, is not part of the request.
    const fields = withCleanAttribution(
      Object.fromEntries(Object.entries(params).filter(([name]) => name !== HONEYPOT_FIELD)),
    )
    const problem = checkTemplateParams(fields)
    if (problem !== null) return answer(reply, 400, problem)

    const record = newRecord(input.serviceId, input.templateId, fields)
    // A browser without scripts lands on the booking page when the rep has a calendar; the
    // e-mail service's protocol has no place for it in its answer.
    const offer = answer === answerAsPage ? options.bookings?.offer() : undefined
    let offered = false
    const kept = await keep(
      request,
      reply,
      record,
      offer &&
        (async (trx, written) => {
          offered = await offer.write(trx, written)
        }),
    )
    if (kept.kept && offered && offer !== undefined) {
      return reply.redirect(`${offer.path}?enviada=1`, 303)
    }
    return kept.kept ? answer(reply, 200, 'OK') : answer(reply, kept.status, kept.text)
  }

  /**
   * Stores an accepted request (held past the total ceiling), or says why it could not: the one
   * way in to the store for both doors.
   */
  async function keep(
    request: FastifyRequest,
    reply: FastifyReply,
    record: DemoRequestRecord,
    alsoWrite?: AlsoWrite,
  ): Promise<Kept> {
    const place = ceiling.take()
    if (!place.stored) return pastTheCeiling(request, reply, record, place, alsoWrite)
    try {
      await demoRequests.accept(record, alsoWrite)
    } catch (error) {
      return storageFailed(request, record, error)
    }
    // Never the visitor's name, e-mail or phone: the log is not where personal data lives.
    const contact = record.params.contact_number
    request.log.info(
      { event: 'demo-request', id: record.id, contact },
      `demo-request ${record.id} stored (contact number ${contact ?? '-'})`,
    )
    return { kept: true }
  }

  /** Holds a request that came past the total ceiling, or refuses it when it cannot. */
  async function pastTheCeiling(
    request: FastifyRequest,
    reply: FastifyReply,
    record: DemoRequestRecord,
    place: { retryAfterSeconds: number },
    alsoWrite: AlsoWrite | undefined,
  ): Promise<Kept> {
    const refuse = (event: string, what: string, message: string): Kept => {
      logRefusal(request, event, what, {}, message)
      reply.header('retry-after', String(place.retryAfterSeconds))
      return { kept: false, status: 429, text: refusals.busy, reason: 'busy' }
    }
    let held: number | null
    try {
      held = await demoRequests.hold(record, heldLimit, alsoWrite)
    } catch (error) {
      // A flood that meets a full store would write a line a request: the first, then a count.
      const first = repeated.admit('demo-request-held-not-stored', {
        what: 'demo requests past DEMO_TOTAL_LIMIT_PER_MINUTE not stored (see the first)',
        level: 'error',
        log: app.log,
      })
      if (!first) countedInSummary(request)
      return storageFailed(request, record, error, first)
    }
    if (held === null) {
      if (!holdFull) {
        holdFull = true
        request.log.warn(
          { event: 'demo-request-hold-full', heldLimit },
          `DEMO_HELD_LIMIT reached: ${heldLimit} held demo requests wait (npm run outbox -- --held); ` +
            'more past DEMO_TOTAL_LIMIT_PER_MINUTE get 429 until they are released or erased',
        )
      }
      return refuse(
        'demo-request-busy',
        'demo requests refused with 429: DEMO_TOTAL_LIMIT_PER_MINUTE passed and DEMO_HELD_LIMIT full',
        'demo request refused with 429: DEMO_TOTAL_LIMIT_PER_MINUTE passed and DEMO_HELD_LIMIT full',
      )
    }
    holdFull = false
    const news = episodes.held(held)
    if (news?.kind === 'began') floodBegins(request, { since: news.since, held })
    else if (news?.kind === 'grew') floodGrows(request, { since: news.since, held })
    const contact = record.params.contact_number
    request.log.info(
      { event: 'demo-request-held', id: record.id, contact },
      `demo-request ${record.id} held, not delivered (contact number ${contact ?? '-'})`,
    )
    // Told as any other: a bot learns nothing from the answer.
    return { kept: true }
  }

  /** A flood begins: the sales team is told once, with the moment the episode began. */
  function floodBegins(request: FastifyRequest, episode: { since: Date; held: number }): void {
    const { held } = episode
    request.log.warn(
      { event: 'demo-request-flood', held, totalLimitPerMinute: totalLimit, heldLimit },
      `more than DEMO_TOTAL_LIMIT_PER_MINUTE (${totalLimit}) demo requests a minute: the ones ` +
        `past it are held, not delivered, up to DEMO_HELD_LIMIT (${heldLimit}); ${held} held now ` +
        '(npm run outbox -- --held, then --release-held or --erase-held)',
    )
    try {
      demoRequests.floodBegan(episode)
    } catch (error) {
      // The request is stored: a notice that fails is the notice's to log, not the visitor's.
      request.log.error({ event: 'flood-notice-failed', err: error }, 'flood notice failed')
    }
  }

  /** The flood goes on, tenfold since the sales team was last told: told again. */
  function floodGrows(request: FastifyRequest, episode: { since: Date; held: number }): void {
    request.log.warn(
      { event: 'demo-request-flood-grows', held: episode.held, heldLimit },
      `the flood of demo requests goes on: ${episode.held} held now, up to DEMO_HELD_LIMIT ` +
        `(${heldLimit}) (npm run outbox -- --held, then --release-held or --erase-held)`,
    )
    try {
      demoRequests.floodGrew(episode)
    } catch (error) {
      request.log.error({ event: 'flood-notice-failed', err: error }, 'flood notice failed')
    }
  }

  const routeOptions = { bodyLimit: BODY_LIMIT }

  app.post(SEND_PATH, routeOptions, async (request, reply) => {
    if (mediaType(request) !== 'application/json') return sendText(reply, 415, MESSAGES.sendType)
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendText(reply, 400, MESSAGES.badJson)
    }
    const { user_id, service_id, template_id, template_params } = body as Record<string, unknown>
    return accept(request, reply, {
      userId: user_id,
      serviceId: service_id,
      templateId: template_id,
      templateParams: template_params,
    })
  })

  if (options.door !== undefined) {
    demoDoor(
      app,
      { ...options.door, bookings: options.bookings ?? null },
      {
        routeOptions,
        keep,
        isBot: (request) => {
          logRefusal(
            request,
            'demo-request-bot',
            'demo requests with the bot trap filled, not stored',
            {},
            'demo request with the bot trap filled: not stored',
          )
        },
      },
    )
  }

  app.post(SEND_FORM_PATH, routeOptions, async (request, reply) => {
    if (mediaType(request) !== 'multipart/form-data') {
      return sendText(reply, 415, MESSAGES.formType)
    }
    const page = isNavigation(request)
    const answer = page ? answerAsPage : answerAsText
    const fields = await formFields(request)
    if (fields === null) return answer(reply, 400, MESSAGES.badForm)
    // The page's script would have numbered the request.
    if (page && !present(fields.get(CONTACT_NUMBER_PARAM))) {
      fields.set(CONTACT_NUMBER_PARAM, newContactNumber())
    }
    const params = Object.fromEntries(
      [...fields].filter(([name]) => !CONTROL_FIELD_NAMES.has(name)),
    )
    return accept(
      request,
      reply,
      {
        userId: fields.get('user_id'),
        serviceId: fields.get('service_id'),
        templateId: fields.get('template_id'),
        templateParams: params,
      },
      answer,
    )
  })
}
