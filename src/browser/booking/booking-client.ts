// The page's side of a booking address (`/reserva/<token>`, given by the door's answer when the
// request's rep has a calendar): read the free times, book one, change or cancel the meeting.
// Each answer is checked here, at the edge: the picker only ever sees one of these results.
// The interface is in docs/decisions/027-the-free-times-under-the-success-message.md.

/** A booked meeting, as the booking address states it. */
export interface Meeting {
  /** RFC 3339 instants. */
  readonly start: string
  readonly end: string
  /** The rep's video room. */
  readonly url: string
}

/** What `GET {booking}` answers: the rep, the free starts (UTC, ascending), any meeting. */
export interface BookingView {
  readonly repName: string
  /** How long the meeting lasts. */
  readonly minutes: number
  readonly times: readonly string[]
  readonly meeting: Meeting | null
}

/** The outcome of a booking, a change or a cancel. */
export type BookingOutcome =
  | { readonly kind: 'booked'; readonly meeting: Meeting | null }
  /** Someone took that time (409): the server's sentence and the free times now. */
  | { readonly kind: 'taken'; readonly error: string; readonly times: readonly string[] }
  /** Refused (422, 404) with the server's sentence, or no answer at all (sentence null). */
  | { readonly kind: 'failed'; readonly error: string | null }

/** The longest the page waits for an answer; the times are cached by the server, so far above. */
const ANSWER_TIMEOUT_MS = 10_000

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isInstant = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value))

/** Only a secure address is offered as the meeting's room. */
const isRoom = (value: unknown): value is string => {
  if (typeof value !== 'string') return false
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

function meetingOf(value: unknown): Meeting | null | undefined {
  if (value === null) return null
  if (!isRecord(value)) return undefined
  const { start, end, url } = value
  return isInstant(start) && isInstant(end) && isRoom(url) ? { start, end, url } : undefined
}

const timesOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter(isInstant) : undefined

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json()
  } catch {
    return undefined
  }
}

const errorOf = (body: unknown): string | null =>
  isRecord(body) && typeof body.error === 'string' && body.error !== '' ? body.error : null

/**
 * The free times and any meeting of a booking address, or null when there is nothing to offer
 * the visitor: an unknown or expired address (404), a calendar that cannot be read (503), no
 * answer, or an answer that is not the interface's. The page then keeps today's message.
 */
export async function readBooking(path: string): Promise<BookingView | null> {
  try {
    const response = await fetch(path, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    })
    if (!response.ok) return null
    const body = await jsonOf(response)
    if (!isRecord(body) || !isRecord(body.rep) || typeof body.rep.name !== 'string') return null
    const { minutes } = body
    const times = timesOf(body.times)
    const meeting = meetingOf(body.meeting)
    if (typeof minutes !== 'number' || !(minutes > 0) || times === undefined) return null
    if (meeting === undefined) return null
    return { repName: body.rep.name, minutes, times, meeting }
  } catch {
    return null
  }
}

async function post(path: string, body: object): Promise<BookingOutcome> {
  let response: Response
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    })
  } catch {
    return { kind: 'failed', error: null }
  }
  const answer = await jsonOf(response)
  if (response.ok && isRecord(answer)) {
    const meeting = meetingOf(answer.meeting)
    if (meeting !== undefined) return { kind: 'booked', meeting }
  }
  if (response.status === 409) {
    const times = isRecord(answer) ? timesOf(answer.times) : undefined
    const error = errorOf(answer)
    if (times !== undefined && error !== null) return { kind: 'taken', error, times }
  }
  return { kind: 'failed', error: errorOf(answer) }
}

/** Books `start` (RFC 3339 with an offset), or moves the meeting there when there is one. */
export const bookTime = (path: string, start: string) => post(path, { start })

/** Cancels the meeting: booked with `meeting: null` when done. */
export const cancelMeeting = (path: string) => post(path, { cancel: true })
