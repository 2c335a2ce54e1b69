// The booking's routes, `{booking}` = `/reserva/<token>` (the interface both booking helpers
// keep, docs/production.md "Booking a demo"): GET answers JSON to the page's picker (Accept
// application/json) and a page to a browser without JavaScript; POST books with JSON
// `{"start": …}` or the page's form (`start=…`), cancels with `{"cancel": true}` or `cancel=1`.
// The JSON never waits on a calendar's server; the page is the same view as HTML.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { NO_STORE, REVALIDATE_CACHE, type BookingTexts } from '../http/index.js'
import type { Meeting } from '../store/index.js'
import { BOOKING_PREFIX, type BookingView, type Bookings, type NoBooking } from './bookings.js'
import { BOOKING_CSS } from './page-style.js'
import { bookingHtml, cancelledHtml, messageHtml, STYLE_PATH } from './page.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const HTML_TYPE = 'text/html; charset=utf-8'
/** A start or a cancellation is a few dozen bytes. */
const BODY_LIMIT = 2048

/** `2026-12-01T16:00:00Z`: UTC, to the second. */
const utc = (at: number): string => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** RFC 3339 with Z or an offset, as the picker and the page send it. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i

const meetingJson = (meeting: Meeting | null, view: BookingView) =>
  meeting === null
    ? null
    : { start: utc(meeting.start), end: utc(meeting.end), url: view.rep.meetingUrl }

const viewJson = (view: BookingView) => ({
  rep: { name: view.rep.name },
  minutes: view.minutes,
  times: view.times.map(utc),
  meeting: meetingJson(view.meeting, view),
  expires: utc(view.expiresAt),
})

const wantsJson = (request: FastifyRequest): boolean =>
  (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json') ||
  (request.headers.accept ?? '').toLowerCase().includes('application/json')

/** The site's origin as the visitor reached it (behind a trusted proxy, as it says). */
const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`

/** Whether the browser says the post comes from another site's page. */
function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  if (site !== undefined) return site !== 'same-origin' && site !== 'none'
  const origin = request.headers.origin
  if (origin === undefined) return false
  try {
    return new URL(origin).host !== request.host
  } catch {
    return true
  }
}

/** What a post asks: a start, a cancellation, or nothing we understand. */
type Asked = { start: number } | { cancel: true } | { malformed: true } | { badStart: true }

function asked(body: unknown): Asked {
  if (typeof body !== 'object' || body === null) return { malformed: true }
  const { start, cancel } = body as Record<string, unknown>
  if (cancel === true || cancel === '1') return { cancel: true }
  if (typeof start !== 'string') return { malformed: true }
  const at = RFC_3339.test(start.trim()) ? Date.parse(start.trim()) : Number.NaN
  return Number.isNaN(at) ? { badStart: true } : { start: at }
}

export const bookingRoutes: FastifyPluginAsync<{
  bookings: Bookings
  /** What the pages and answers say, as the build wrote it (dist/.site.json). */
  texts: BookingTexts
}> = async (app, options) => {
  const { bookings } = options
  const { page: bookingPage, answers: bookingAnswers } = options.texts
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.addHook('onRequest', async (request, reply) => {
    // The address is the visitor's key: no cache keeps it, no page it links to learns it.
    reply.header('cache-control', NO_STORE).header('referrer-policy', 'no-referrer')
    reply.header('x-robots-tag', 'noindex, nofollow')
    if (request.url === STYLE_PATH) reply.header('cache-control', REVALIDATE_CACHE)
  })

  app.get(STYLE_PATH, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(BOOKING_CSS),
  )

  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).type(JSON_TYPE).send(JSON.stringify(body))
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type(HTML_TYPE).send(body)

  const nothing = (request: FastifyRequest, reply: FastifyReply, why: NoBooking) => {
    const status = why === 'unknown' ? 404 : 503
    const text = why === 'unknown' ? bookingAnswers.unknown : bookingAnswers.unavailable
    if (wantsJson(request)) return json(reply, status, { error: text })
    const title = why === 'unknown' ? bookingPage.unknownTitle : bookingPage.unavailableTitle
    return html(reply, status, messageHtml(bookingPage, title, text))
  }

  const path = `${BOOKING_PREFIX}:token`

  app.get<{ Params: { token: string }; Querystring: { enviada?: string } }>(
    path,
    async (request, reply) => {
      const view = await bookings.show(request.params.token)
      if (typeof view === 'string') return nothing(request, reply, view)
      if (wantsJson(request)) return json(reply, 200, viewJson(view))
      return html(reply, 200, bookingHtml(bookingPage, view, null, request.query.enviada === '1'))
    },
  )

  app.post<{ Params: { token: string } }>(
    path,
    { bodyLimit: BODY_LIMIT },
    async (request, reply) => {
      const asJson = wantsJson(request)
      const refuse = (status: number, text: string) =>
        asJson
          ? json(reply, status, { error: text })
          : html(reply, status, messageHtml(bookingPage, bookingPage.title, text))
      if (isCrossSite(request)) return refuse(403, bookingAnswers.crossSite)
      const { token } = request.params
      const what = asked(request.body)
      if ('malformed' in what) return refuse(400, bookingAnswers.malformed)

      if ('cancel' in what) {
        const result = await bookings.cancel(token, originOf(request))
        if (typeof result === 'string') return nothing(request, reply, result)
        if (asJson) return json(reply, 200, { meeting: null })
        return html(reply, 200, cancelledHtml(bookingPage, result.view))
      }

      if ('badStart' in what) return refuse(422, bookingAnswers.notOffered)
      const result = await bookings.book(token, what.start, originOf(request))
      if (typeof result === 'string') return nothing(request, reply, result)
      if (result.kind === 'not-offered') {
        if (asJson) return json(reply, 422, { error: bookingAnswers.notOffered })
        const again = await bookings.show(token)
        if (typeof again === 'string') return nothing(request, reply, again)
        return html(
          reply,
          422,
          bookingHtml(bookingPage, again, { kind: 'error', text: bookingAnswers.notOffered }),
        )
      }
      if (result.kind === 'taken') {
        if (asJson) {
          return json(reply, 409, {
            error: bookingAnswers.taken,
            times: result.view.times.map(utc),
          })
        }
        return html(
          reply,
          409,
          bookingHtml(bookingPage, result.view, { kind: 'error', text: bookingAnswers.taken }),
        )
      }
      if (asJson) return json(reply, 200, { meeting: meetingJson(result.meeting, result.view) })
      return html(reply, 200, bookingHtml(bookingPage, result.view))
    },
  )
}
