// The booking service the routes call by name (routes.ts): a request whose rep has a calendar
// gets a booking address with its answer; that address shows the rep's free times, from the
// calendar read in the background (never waiting on its server), and books one of them: the
// calendar read again when the copy is older than a minute, then the meeting recorded in one
// transaction under the store's unique (rep, start), so that a time is booked once.
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { CountryCode } from 'libphonenumber-js/max'
import { parsePhone, territoryOf, type Team, type TeamRep } from '../settings/index.js'
import { BOOKING_RULE, freeStarts, type CalendarReader, type Span } from '../calendar/index.js'
import {
  offerBooking,
  type AlsoWrite,
  type LeadStore,
  type Meeting,
  type MeetingNotice,
  type MeetingNotices,
  type Offer,
} from '../store/index.js'
import { visitorZone } from './visitor-zone.js'

/** Where a booking lives on the site: `/reserva/<token>`. */
export const BOOKING_PREFIX = '/reserva/'
/** How long a booking address works, from the request. */
const VALID_MS = 14 * 24 * 60 * 60 * 1000
/** Before a booking the calendar is read again when what was read is older than this. */
const FRESH_FOR_BOOKING_MS = 60_000

/** The token's SHA-256: all the store keeps of it. */
const tokenHash = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex')

/** 128 random bits, base64url: the address cannot be guessed. */
const newToken = (): string => randomBytes(16).toString('base64url')

const TOKEN = /^[A-Za-z0-9_-]{22}$/

/** What a booking address shows: the rep, the free starts, the meeting if one is booked. */
export interface BookingView {
  rep: TeamRep
  minutes: number
  /** Free starts, ms since the epoch, ascending. */
  times: number[]
  meeting: Meeting | null
  expiresAt: number
  /** The zone the page without JavaScript shows the times in: the visitor's likely one. */
  visitorZone: string
}

type Booked =
  | { kind: 'booked'; view: BookingView; meeting: Meeting; previous: Meeting | null }
  | { kind: 'taken'; view: BookingView }
  | { kind: 'not-offered' }

/** Why a booking address shows nothing: unknown or expired, or its calendar cannot be read. */
export type NoBooking = 'unknown' | 'unavailable'

interface BookingsOptions {
  /** Where a number written without a country code is looked for (as WhatsApp's routing). */
  regions: readonly CountryCode[]
  /** What carries a meeting's news: the mail (invitations), the webhook (the CRM's events). */
  carriers: { mail: boolean; webhook: boolean }
  now?: () => number
}

export class Bookings {
  private readonly reps: ReadonlyMap<string, TeamRep>
  private readonly now: () => number

  constructor(
    private readonly store: LeadStore,
    private readonly team: Team,
    private readonly calendars: CalendarReader,
    private readonly options: BookingsOptions,
  ) {
    this.reps = new Map(team.reps.map((rep) => [rep.email, rep]))
    this.now = options.now ?? Date.now
  }

  /** Reads the calendars now and then in the background. */
  start(log?: FastifyBaseLogger): Promise<void> {
    return this.calendars.start(log)
  }

  stop(): Promise<void> {
    return this.calendars.stop()
  }

  /**
   * What a change of meeting sends, in its transaction (decision 026): an invitation by mail to
   * the visitor (only from the booking page, `booking` its address; never a word the visitor
   * wrote) and to the rep (with the request's details), and the CRM's signed event. A
   * cancellation is METHOD:CANCEL with the SEQUENCE one higher.
   */
  private notices(rep: TeamRep, booking: string | null, zone: string): MeetingNotices {
    const { mail, webhook } = this.options.carriers
    return ({ meeting, cancelled, params }) => {
      const visitor = params.user_email ?? null
      const request = visitor === null ? null : { id: meeting.requestId, params }
      const base = {
        method: cancelled ? ('CANCEL' as const) : ('REQUEST' as const),
        uid: meeting.uid,
        sequence: cancelled ? meeting.sequence + 1 : meeting.sequence,
        start: meeting.start,
        end: meeting.end,
        rep: { name: rep.name, email: rep.email },
        attendee: visitor,
        room: rep.meetingUrl,
        zone,
      }
      // The rep reads the time in their own zone; the visitor in theirs.
      const repCopy = {
        ...base,
        zone: rep.timeZone,
        for: 'rep' as const,
        address: rep.email,
        booking: null,
        request,
      }
      const notices: MeetingNotice[] = []
      if (mail) {
        if (visitor !== null && booking !== null) {
          const data = {
            ...base,
            for: 'visitor' as const,
            address: visitor,
            booking,
            request: null,
          }
          notices.push({ type: 'meeting.invitation', carrier: 'email', data })
        }
        notices.push({ type: 'meeting.invitation', carrier: 'email', data: repCopy })
      }
      if (webhook) {
        const type = cancelled ? 'demo_request.booking_cancelled' : 'demo_request.booked'
        notices.push({ type, carrier: 'webhook', data: repCopy })
      }
      return notices
    }
  }

  /**
   * Before requests are erased: their meetings cancelled, the rep told (no visitor named).
   * Resolves to how many.
   */
  cancelForErasure(requestIds: readonly string[]): Promise<number> {
    return this.store.bookings.cancelForErasure(requestIds, (change) => {
      const rep = this.reps.get(change.meeting.rep)
      return rep === undefined ? [] : this.notices(rep, null, rep.timeZone)(change)
    })
  }

  /**
   * A booking offer for a request about to be stored: `write` runs in its transaction and says
   * whether its rep has a calendar; then `path` is its booking address.
   */
  offer(): { path: string; write: (...args: Parameters<AlsoWrite>) => Promise<boolean> } {
    const token = newToken()
    const expiresAt = this.now() + VALID_MS
    return {
      path: `${BOOKING_PREFIX}${token}`,
      write: (trx, record) => {
        const phone = parsePhone(record.params.user_phone ?? '', this.options.regions)
        const { territory, reps } = territoryOf(this.team, phone?.callingCode ?? null)
        const withCalendar = (rep: TeamRep | undefined) =>
          rep !== undefined && rep.calendar !== null && this.calendars.has(rep.email)
            ? rep.email
            : null
        return offerBooking(
          trx,
          record.id,
          {
            territory,
            byWhatsApp: (number) =>
              withCalendar(this.team.reps.find((rep) => rep.whatsapp === number)),
            inTurn: (turn) => withCalendar(reps[turn % Math.max(reps.length, 1)]),
          },
          { hash: tokenHash(token), expiresAt },
        )
      },
    }
  }

  private async offerOf(token: string): Promise<{ offer: Offer; rep: TeamRep } | null> {
    if (!TOKEN.test(token)) return null
    const offer = await this.store.bookings.offer(tokenHash(token), this.now())
    const rep = offer === null ? undefined : this.reps.get(offer.rep)
    // A rep taken out of the team file since: the address leads nowhere.
    return offer === null || rep === undefined ? null : { offer, rep }
  }

  /** The view of an offer; with no calendar read (`busy` null), no time is offered. */
  private async view(
    offer: Offer,
    rep: TeamRep,
    busy: readonly Span[] | null,
  ): Promise<BookingView> {
    const now = this.now()
    const meetings = await this.store.bookings.meetingsOf(rep.email, now)
    const request = await this.store.request(offer.requestId)
    const rule = {
      ...BOOKING_RULE,
      hours: rep.hours,
      timeZone: rep.timeZone,
      minutes: this.team.meetingMinutes,
    }
    return {
      rep,
      minutes: this.team.meetingMinutes,
      times: busy === null ? [] : freeStarts(rule, [...busy, ...meetings], now),
      meeting: offer.meeting,
      expiresAt: offer.expiresAt,
      visitorZone: visitorZone(
        request?.params.user_phone ?? '',
        this.options.regions,
        rep.timeZone,
      ),
    }
  }

  /** What a booking address shows now, from the calendar as last read: never waits on it. */
  async show(token: string): Promise<BookingView | NoBooking> {
    const found = await this.offerOf(token)
    if (found === null) return 'unknown'
    const copy = this.calendars.cached(found.rep.email)
    if (copy === null) return 'unavailable'
    return this.view(found.offer, found.rep, copy.busy)
  }

  /**
   * Books `start` (or moves the meeting there): only a start the rule offers (else
   * 'not-offered'), free in the calendar read at most a minute ago and in the store's meetings
   * (else 'taken', with the fresh times).
   */
  async book(token: string, start: number, origin: string): Promise<Booked | NoBooking> {
    const found = await this.offerOf(token)
    if (found === null) return 'unknown'
    const { offer, rep } = found
    const length = this.team.meetingMinutes * 60_000
    const grid = freeStarts(
      {
        ...BOOKING_RULE,
        hours: rep.hours,
        timeZone: rep.timeZone,
        minutes: this.team.meetingMinutes,
      },
      [],
      this.now(),
    )
    if (!grid.includes(start)) return { kind: 'not-offered' }
    let busy: Span[]
    try {
      busy = (await this.calendars.fresh(rep.email, FRESH_FOR_BOOKING_MS)).busy
    } catch {
      return 'unavailable'
    }
    const before = await this.view(offer, rep, busy)
    const ownStart = offer.meeting?.start
    if (!before.times.includes(start) && ownStart !== start) return { kind: 'taken', view: before }
    const address = `${origin}${BOOKING_PREFIX}${token}`
    const outcome = await this.store.bookings.book(
      tokenHash(token),
      start,
      start + length,
      this.notices(rep, address, before.visitorZone),
      this.now(),
    )
    if (outcome.kind === 'unknown') return 'unknown'
    const after = await this.view(
      { ...offer, meeting: outcome.kind === 'booked' ? outcome.meeting : offer.meeting },
      rep,
      busy,
    )
    if (outcome.kind === 'taken') return { kind: 'taken', view: after }
    return { kind: 'booked', view: after, meeting: outcome.meeting, previous: outcome.previous }
  }

  /** Cancels the meeting of a booking address; the view after it. */
  async cancel(
    token: string,
    origin: string,
  ): Promise<{ view: BookingView; cancelled: Meeting | null } | NoBooking> {
    const found = await this.offerOf(token)
    if (found === null) return 'unknown'
    const copy = this.calendars.cached(found.rep.email)
    const shown = await this.view({ ...found.offer, meeting: null }, found.rep, copy?.busy ?? null)
    const address = `${origin}${BOOKING_PREFIX}${token}`
    const cancelled = await this.store.bookings.cancel(
      tokenHash(token),
      this.notices(found.rep, address, shown.visitorZone),
      this.now(),
    )
    if (cancelled === 'unknown') return 'unknown'
    const view =
      cancelled === null
        ? shown
        : await this.view({ ...found.offer, meeting: null }, found.rep, copy?.busy ?? null)
    return { view, cancelled }
  }
}
