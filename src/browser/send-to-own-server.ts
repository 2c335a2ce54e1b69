import type { MailConfig } from '../config/mail-config'
import { demoForm } from '../copy/demo-form'
import type { ReactNode } from 'react'
import { DOOR_PATH, IDEMPOTENCY_KEY_HEADER } from '../contract/demo-request-fields'
import { demoRequestSchema, refusalText } from '../contract/demo-request-schema'
import { keyForRequest } from '../rules/draft-key'
import type { KeyValueStore } from '../rules/key-value-store'
import { SendTimeoutError } from '../rules/send-error-text'
import { RATE_LIMIT_KEY } from '../rules/sent-at'

type Params = Readonly<Record<string, string>>

/**
 * How long the page waits before each retry of a request whose answer was lost. Four tries in
 * about seven seconds (plus each try's own timeout) ride out a tunnel or a hand-over between
 * cells; past them the visitor is told, keeps the draft and its key, and the send button
 * tries again with the same key.
 * @internal its tests use it too
 */
export const RETRY_DELAYS_MS = [1000, 2000, 4000] as const
/**
 * While the browser says it is offline, a retry waits for the connection to come back (the
 * `online` event) up to this long instead.
 * @internal its tests use it too
 */
export const OFFLINE_WAIT_MS = 30_000

/** An answer that refuses the request: shown as the e-mail SDK's refusals were. */
class Refused {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

/** A try that got no answer: nothing says the request was not stored, so it may be retried. */
class Lost {
  constructor(readonly cause: unknown) {}
}

/** Waits `ms`, or less if the connection comes back meanwhile. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      window.removeEventListener('online', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    window.addEventListener('online', done)
  })
}

async function refusalOf(response: Response): Promise<Refused> {
  const text = await response.text().catch(() => '')
  try {
    const { error } = JSON.parse(text) as { error?: unknown }
    if (typeof error === 'string') return new Refused(response.status, error)
  } catch {
    // Not the door's JSON (a proxy's page, say): its text is what the visitor is shown.
  }
  return new Refused(response.status, text)
}

/** What a stored request leads to on the page. */
export interface Sent {
  /**
   * What follows the success message, once its code has loaded: the rep's free times, when the
   * door's answer gave the request a booking address (`"booking": "/reserva/<token>"`). Their
   * code is a chunk of its own, asked for here and only then: never by the page's first load,
   * never by a build for static hosts (decision 027). A chunk that cannot be loaded leads to
   * nothing, and the success message stays as it is.
   */
  readonly next?: Promise<ReactNode>
}

/**
 * What a stored request's answer leads to: a booking address is taken only as a path on this
 * site (the page reads it), and an answer that is not the door's JSON leads to nothing more.
 */
function sentFrom(answer: string): Sent {
  try {
    const { booking } = JSON.parse(answer) as { booking?: unknown }
    if (typeof booking === 'string' && /^\/(?!\/)[\w\-./]+$/.test(booking))
      return {
        next: import('./booking/booking-picker').then(
          (picker) => picker.bookingPickerFor(booking),
          () => null,
        ),
      }
  } catch {
    // Stored all the same.
  }
  return {}
}

/** One try: resolves with the answer's text when the request is stored, rejects with Refused or Lost. */
async function tryOnce(body: string, key: string, timeoutMs: number): Promise<string> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new SendTimeoutError(timeoutMs)), timeoutMs)
  let response: Response
  try {
    response = await fetch(DOOR_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: `"${key}"` },
      body,
      signal: controller.signal,
    })
    // The body is read under the same timeout: an answer cut halfway is lost too.
    if (response.ok) return await response.text()
  } catch (error) {
    throw new Lost(controller.signal.aborted ? controller.signal.reason : error)
  } finally {
    clearTimeout(timer)
  }
  // 409: the first try reached the server and is being stored; its answer is the retry's.
  if (response.status === 409) throw new Lost(await refusalOf(response))
  throw await refusalOf(response)
}

/**
 * Sends one demo request to our own door (own-server builds): JSON with the form's field names,
 * checked first by the schema the server applies, with the draft's Idempotency-Key. When an
 * answer is lost the same request is tried again with the same key, while the visitor sees it
 * being sent; the server stores it once however many tries reach it. It rejects as the e-mail
 * SDK did, so the alert reads the same: a refusal with its status and the server's sentence,
 * a TypeError ('Network Error') or a SendTimeoutError when no answer ever came. Resolves with
 * what the page shows next (the rep's free times, when the answer gave a booking address).
 */
export async function sendDemoRequest(
  params: Params,
  config: MailConfig,
  storage: KeyValueStore,
): Promise<Sent> {
  // The same limit the SDK keeps on static hosts: one request that reached sales per period.
  const sentAt = Number(storage.get(RATE_LIMIT_KEY))
  if (sentAt > 0 && Date.now() - sentAt < config.rateLimitMs) {
    throw new Refused(429, 'Too Many Requests')
  }
  const checked = demoRequestSchema(demoForm.errors).safeParse(params)
  if (!checked.success) throw new Refused(400, refusalText(checked.error.issues))
  const body = JSON.stringify(checked.data)
  const key = keyForRequest(storage, body)

  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await tryOnce(body, key, config.sendTimeoutMs)
      storage.set(RATE_LIMIT_KEY, String(Date.now()))
      return sentFrom(answer)
    } catch (error) {
      if (!(error instanceof Lost)) throw error
      const delay = RETRY_DELAYS_MS[attempt]
      if (delay === undefined) throw error.cause
      await pause(navigator.onLine === false ? OFFLINE_WAIT_MS : delay)
    }
  }
}
