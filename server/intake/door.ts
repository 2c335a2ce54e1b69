// Our own door for the demo request (POST /api/demo-requests): what an own-server page sends,
// JSON with the form's field names and an Idempotency-Key, answered in JSON. It is a route of
// the intake plugin (demo-intake.ts), so the same guards stand before it (another site's page,
// the rate per client, the body limit, the total ceiling and the held requests, the store's
// room), and it stores through the same `keep` as the e-mail service's endpoint. What it adds:
// one schema with the page (src/contract/demo-request-schema.ts) and the key.
//
// The key follows the IETF HTTP APIs draft "The Idempotency-Key HTTP Header Field"
// (draft-ietf-httpapi-idempotency-key-header-07, section 2.7 "Error Scenarios",
// https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/): a request
// without it is refused with 400, the
// same key with another request with 422, a retry while the first is still being stored with
// 409, and a retry of a stored one gets the first answer again, status and body, with nothing
// stored or delivered twice. Only a stored request's answer is kept under its key: a refusal
// frees the key, so the visitor may mend a field and send the same draft again. Keys live a day.
// See docs/decisions/020-our-own-door.md.
import { createHash, randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HONEYPOT_FIELD } from '../../src/contract/demo-request.js'
import { DOOR_PATH, type FieldMessages } from '../../src/contract/demo-request-fields.js'
import { demoRequestSchema, refusalText } from '../../src/contract/demo-request-schema.js'
import { doorRefusals, refusals } from '../../src/contract/lead-server-text.js'
import { keyAnswered, newRecord, type AlsoWrite, type LeadStore } from '../store/index.js'
import type { Bookings } from '../booking/index.js'

export interface DoorOptions {
  /** The form's messages, as the page that this server serves shows them (dist/.site.json). */
  messages: FieldMessages
  /** Where the keys are kept: the lead store, shared by every server on it. */
  keys: Pick<LeadStore, 'claimIdempotencyKey' | 'releaseIdempotencyKey' | 'pruneIdempotencyKeys'>
  /** The booking offered with each request whose rep has a calendar; null: none. */
  bookings: Pick<Bookings, 'offer'> | null
}

/** What the door's answer to a stored request says: an object, so fields can be added later. */
interface DoorAnswer {
  /** The stored request's id. */
  id: string
  status: 'stored'
  /** The booking address, when the request's rep has a calendar (decision 026). */
  booking?: string
}

/** A refusal: a sentence for the visitor and, for a request the schema refused, each field's. */
interface DoorRefusal {
  error: string
  fields?: Record<string, string>
}

const JSON_TYPE = 'application/json; charset=utf-8'
/** How often the keys older than a day are swept away (besides each key's own on reuse). */
const PRUNE_EVERY_MS = 60 * 60 * 1000

export const isDoor = (request: FastifyRequest): boolean => request.routeOptions.url === DOOR_PATH

export const doorRefusal = (
  reply: FastifyReply,
  status: number,
  error: string,
  fields?: Record<string, string>,
): FastifyReply =>
  reply
    .code(status)
    .type(JSON_TYPE)
    .send(JSON.stringify({ error, ...(fields && { fields }) } satisfies DoorRefusal))

/** The sentence for an error Fastify or a guard raised before the route ran. */
export function doorErrorText(status: number | null): string {
  if (status === null) return doorRefusals.notStored
  if (status === 413) return doorRefusals.tooLarge
  if (status === 429) return doorRefusals.rateLimited
  if (status === 403) return refusals.crossSite
  // 415, a body that is not JSON, or one with a "__proto__" key (Fastify's 400s).
  return doorRefusals.notJson
}

/** What became of a request the intake tried to keep. */
export type Kept =
  | { kept: true }
  | {
      kept: false
      status: 429 | 500 | 507
      /** The sending API's text (English); the door says it in Spanish by `reason`. */
      text: string
      reason: 'busy' | 'full' | 'no-space' | 'not-stored'
    }

/** Why a request could not be kept, in Spanish. */
const notKeptText = (reason: Extract<Kept, { kept: false }>['reason']): string =>
  reason === 'busy'
    ? refusals.busy
    : reason === 'not-stored'
      ? doorRefusals.notStored
      : doorRefusals.storeFull

// The draft: "Idempotency-Key is an Item Structured Header [RFC 8941]. Its value MUST be a
// String". A bare token (what `curl -H 'Idempotency-Key: abc'` sends) is taken as well.
const QUOTED_KEY = /^"([\x20\x21\x23-\x5b\x5d-\x7e]{1,255})"$/
const BARE_KEY = /^([\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]{1,255})$/

/** The key a request came with; null without one, 'malformed' when it is not a string. */
function idempotencyKey(header: string | string[] | undefined): string | null | 'malformed' {
  if (header === undefined) return null
  if (Array.isArray(header)) return 'malformed'
  const value = header.trim()
  if (value === '') return null
  const match = QUOTED_KEY.exec(value) ?? BARE_KEY.exec(value)
  return match?.[1] ?? 'malformed'
}

/**
 * What tells a retry from another request: SHA-256 of the key and the request with its
 * parameters in name order. Only this is kept, never the request, so erasing a person leaves
 * nothing of them readable in the keys.
 * @internal its tests use it too
 */
export function fingerprint(key: string, params: Readonly<Record<string, string>>): string {
  const canonical = JSON.stringify(
    Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  )
  return createHash('sha256').update(`${key}\n${canonical}`, 'utf8').digest('hex')
}

interface DoorParts {
  routeOptions: { bodyLimit: number }
  /** The intake's one way in to the store (demo-intake.ts). */
  keep(
    request: FastifyRequest,
    reply: FastifyReply,
    record: ReturnType<typeof newRecord>,
    alsoWrite: AlsoWrite,
  ): Promise<Kept>
  /** Logs a filled bot trap as the other endpoints do. */
  isBot(request: FastifyRequest): void
}

/** Registers the door on the intake plugin's instance, under its hooks and guards. */
export function demoDoor(app: FastifyInstance, options: DoorOptions, parts: DoorParts): void {
  const schema = demoRequestSchema(options.messages)
  const { keys, bookings } = options
  let nextPrune = 0

  const answer = (reply: FastifyReply, status: number, body: string): FastifyReply =>
    reply.code(status).type(JSON_TYPE).send(body)

  /** Forgets day-old keys now and then; a failure is the log's, not the visitor's. */
  const pruneNowAndThen = (request: FastifyRequest): void => {
    const now = Date.now()
    if (now < nextPrune) return
    nextPrune = now + PRUNE_EVERY_MS
    keys.pruneIdempotencyKeys(now).catch((error: unknown) => {
      request.log.error({ event: 'idempotency-keys-not-pruned', err: error }, 'keys not pruned')
    })
  }

  app.post(DOOR_PATH, parts.routeOptions, async (request, reply) => {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
    if (type !== 'application/json') return doorRefusal(reply, 415, doorRefusals.notJson)
    const key = idempotencyKey(request.headers['idempotency-key'])
    if (key === null) return doorRefusal(reply, 400, doorRefusals.missingKey)
    if (key === 'malformed') return doorRefusal(reply, 400, doorRefusals.badKey)
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return doorRefusal(reply, 400, doorRefusals.notJson)
    }
    // A filled bot trap is told it succeeded, as on every path, and nothing is kept.
    const { [HONEYPOT_FIELD]: trap, ...sent } = body as Record<string, unknown>
    if (typeof trap === 'string' && trap !== '') {
      parts.isBot(request)
      return answer(reply, 200, JSON.stringify({ id: randomUUID(), status: 'stored' }))
    }

    const parsed = schema.safeParse(sent)
    if (!parsed.success) {
      const fields = Object.fromEntries(
        parsed.error.issues.map((issue) => [String(issue.path[0] ?? ''), issue.message]),
      )
      return doorRefusal(reply, 400, refusalText(parsed.error.issues), fields)
    }
    const params = parsed.data

    pruneNowAndThen(request)
    const claim = await keys.claimIdempotencyKey(key, fingerprint(key, params))
    // The same key gets the same answer, its booking address included.
    if (claim.kind === 'answered') return answer(reply, claim.status, claim.answer)
    if (claim.kind === 'mismatch') return doorRefusal(reply, 422, doorRefusals.keyReused)
    if (claim.kind === 'in-flight') {
      return doorRefusal(reply.header('retry-after', '1'), 409, doorRefusals.inFlight)
    }

    // The e-mail service's ids mean nothing here: left empty.
    const record = newRecord('', '', params)
    const stored = JSON.stringify({ id: record.id, status: 'stored' } satisfies DoorAnswer)
    // The booking's offer is written with the request, in its transaction, and so is the key's
    // answer: with the booking address when the rep has a calendar, so that a retry of the send
    // gets that same address (the key, and the token in its answer, go after a day).
    const offer = bookings?.offer()
    let offered = false
    const written: AlsoWrite = async (trx, each) => {
      if (offer !== undefined) offered = await offer.write(trx, each)
      await keyAnswered(key, 200, theAnswer())(trx, each)
    }
    const theAnswer = (): string =>
      offered && offer !== undefined
        ? JSON.stringify({
            id: record.id,
            status: 'stored',
            booking: offer.path,
          } satisfies DoorAnswer)
        : stored
    let kept: Kept
    try {
      kept = await parts.keep(request, reply, record, written)
    } catch (error) {
      await keys.releaseIdempotencyKey(key).catch(() => undefined)
      throw error
    }
    if (!kept.kept) {
      await keys.releaseIdempotencyKey(key).catch((error: unknown) => {
        // Left claimed, the key frees itself after KEY_CLAIM_MS.
        request.log.error({ event: 'idempotency-key-not-released', err: error }, 'key kept')
      })
      return doorRefusal(reply, kept.status, notKeptText(kept.reason))
    }
    return answer(reply, 200, theAnswer())
  })
}
