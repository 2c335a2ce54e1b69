// The booking in the store, shared by every server on it: the offer written with its request (a
// token's hash and the rep whose turn it is), and the meeting booked through it. A meeting is
// recorded in one transaction, under the unique (rep, start_at) of lead_meetings: of two
// visitors who pick one time at the same moment, on one server or on two sharing PostgreSQL,
// one inserts the row and the other's insert does nothing (ON CONFLICT DO NOTHING waits for the
// first to commit), and is told the time was just taken.
import { createHash, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Dialect } from './dialect.js'
import { insertNotices } from './queue.js'
import type { MeetingData } from './records.js'
import type { Channel, LeadDatabase, NoticeType } from './schema.js'
import { nextTurn } from './whatsapp.js'

type Db = Kysely<LeadDatabase>

/** A booked meeting: its rep, its time, and what its invitation carries (UID, SEQUENCE). */
export interface Meeting {
  requestId: string
  rep: string
  start: number
  end: number
  uid: string
  sequence: number
}

/** What a booking address leads to: its request, its rep, when it expires, its meeting. */
export interface Offer {
  requestId: string
  rep: string
  expiresAt: number
  meeting: Meeting | null
}

/**
 * Who the request's rep is, decided in its transaction: the rep its WhatsApp message went to
 * (`byWhatsApp`), or, without WhatsApp, the rep whose turn it is in its territory (the same
 * turns as WhatsApp's). Each answers the rep's name in the store, or null when that rep has no
 * calendar: then no booking is offered.
 */
interface RepPick {
  territory: string
  byWhatsApp(number: string): string | null
  inTurn(turn: number): string | null
}

type BookingOutcome =
  | { kind: 'booked'; meeting: Meeting; previous: Meeting | null }
  | { kind: 'taken' }
  | { kind: 'unknown' }

/** One mail or event a change of meeting sends: its type, its lane, what it says. */
export interface MeetingNotice {
  type: NoticeType
  carrier: Channel
  data: MeetingData
}

/**
 * The mails and events of a change (a meeting booked, moved or cancelled), made by the booking
 * room from the meeting and its request's params; queued in the change's transaction.
 */
export type MeetingNotices = (change: {
  meeting: Meeting
  previous: Meeting | null
  cancelled: boolean
  params: Record<string, string>
}) => MeetingNotice[]

/** Invitations one visitor's address may get in a day, whatever the bookings. */
const VISITOR_MAILS_A_DAY = 3
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Queues a change's mails and events in its transaction, each once (its once-key names the
 * request, the SEQUENCE, the method and whose it is); a visitor's address that had three
 * invitations in the last day gets no more.
 */
async function queueMeetingNotices(
  trx: Db,
  requestId: string,
  notices: readonly MeetingNotice[],
  now: number,
): Promise<void> {
  for (const { type, carrier, data } of notices) {
    if (type === 'meeting.invitation' && data.for === 'visitor') {
      const hash = createHash('sha256').update(data.address.toLowerCase(), 'utf8').digest('hex')
      await trx
        .deleteFrom('lead_booking_mails')
        .where('sent_at', '<=', now - DAY_MS)
        .execute()
      const { count } = await trx
        .selectFrom('lead_booking_mails')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('address_hash', '=', hash)
        .executeTakeFirstOrThrow()
      if (Number(count) >= VISITOR_MAILS_A_DAY) continue
      await trx
        .insertInto('lead_booking_mails')
        .values({ address_hash: hash, sent_at: now })
        .execute()
    }
    await insertNotices(
      trx,
      {
        type,
        subject: carrier,
        outage: now,
        data: { since: new Date(now).toISOString(), waiting: 0, reason: null, meeting: data },
        requestId: data.request === null && data.attendee === null ? undefined : requestId,
        onceKey: `${type}/${requestId}/${data.sequence}/${data.method}/${data.for}`,
      },
      [carrier],
    )
  }
}

const paramsOf = async (trx: Db, requestId: string): Promise<Record<string, string>> => {
  const row = await trx
    .selectFrom('lead_requests')
    .select('params')
    .where('id', '=', requestId)
    .executeTakeFirst()
  return row === undefined ? {} : (JSON.parse(row.params) as Record<string, string>)
}

/** Thrown inside a transaction to roll it back when the new time was taken meanwhile. */
class Taken extends Error {}

const toMeeting = (row: LeadDatabase['lead_meetings']): Meeting => ({
  requestId: row.request_id,
  rep: row.rep,
  start: Number(row.start_at),
  end: Number(row.end_at),
  uid: row.uid,
  sequence: Number(row.sequence),
})

/**
 * Writes a request's booking offer, in the transaction that stores the request, when its rep has
 * a calendar; resolves to whether it did. Runs after the WhatsApp route is written, so the rep
 * of its first message is the request's rep.
 */
export async function offerBooking(
  trx: Db,
  requestId: string,
  pick: RepPick,
  token: { hash: string; expiresAt: number },
): Promise<boolean> {
  const route = await trx
    .selectFrom('lead_whatsapp')
    .select('reps')
    .where('request_id', '=', requestId)
    .executeTakeFirst()
  const first = route === undefined ? undefined : (JSON.parse(route.reps) as string[])[0]
  const rep =
    first !== undefined
      ? pick.byWhatsApp(first)
      : pick.inTurn((await nextTurn(trx, pick.territory)) - 1)
  if (rep === null) return false
  await trx
    .insertInto('lead_bookings')
    .values({
      request_id: requestId,
      rep,
      token_hash: token.hash,
      created_at: Date.now(),
      expires_at: token.expiresAt,
    })
    .execute()
  return true
}

export class BookingBook {
  /** @internal LeadStore makes one */
  constructor(private readonly dialect: Dialect) {}

  private async meetingOf(db: Db, requestId: string): Promise<Meeting | null> {
    const row = await db
      .selectFrom('lead_meetings')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirst()
    return row === undefined ? null : toMeeting(row)
  }

  /** The offer a token's hash leads to, while it has not expired; null otherwise. */
  async offer(tokenHash: string, now = Date.now()): Promise<Offer | null> {
    const row = await this.dialect.db
      .selectFrom('lead_bookings')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    if (row === undefined) return null
    return {
      requestId: row.request_id,
      rep: row.rep,
      expiresAt: Number(row.expires_at),
      meeting: await this.meetingOf(this.dialect.db, row.request_id),
    }
  }

  /** The meetings of a rep that end after `from`: taken, whatever the calendar says yet. */
  async meetingsOf(rep: string, from: number): Promise<Meeting[]> {
    const rows = await this.dialect.db
      .selectFrom('lead_meetings')
      .selectAll()
      .where('rep', '=', rep)
      .where('end_at', '>', from)
      .orderBy('start_at')
      .execute()
    return rows.map(toMeeting)
  }

  /** The meeting of a request, if one is booked. */
  meeting(requestId: string): Promise<Meeting | null> {
    return this.meetingOf(this.dialect.db, requestId)
  }

  /**
   * Books `start`-`end` with the offer's rep, or moves its meeting there (same UID, SEQUENCE one
   * higher), in one transaction; 'taken' when another meeting of the rep holds that start.
   */
  async book(
    tokenHash: string,
    start: number,
    end: number,
    notices: MeetingNotices,
    now = Date.now(),
  ): Promise<BookingOutcome> {
    try {
      return await this.dialect.transact(async (trx) => {
        const offer = await trx
          .selectFrom('lead_bookings')
          .selectAll()
          .where('token_hash', '=', tokenHash)
          .where('expires_at', '>', now)
          .executeTakeFirst()
        if (offer === undefined) return { kind: 'unknown' } as const
        const previous = await this.meetingOf(trx, offer.request_id)
        if (previous !== null) {
          if (previous.start === start)
            return { kind: 'booked', meeting: previous, previous } as const
          await trx.deleteFrom('lead_meetings').where('request_id', '=', offer.request_id).execute()
        }
        const meeting: Meeting = {
          requestId: offer.request_id,
          rep: offer.rep,
          start,
          end,
          uid: previous?.uid ?? `${randomUUID()}@gaspre`,
          sequence: previous === null ? 0 : previous.sequence + 1,
        }
        const inserted = await trx
          .insertInto('lead_meetings')
          .values({
            request_id: meeting.requestId,
            rep: meeting.rep,
            start_at: start,
            end_at: end,
            uid: meeting.uid,
            sequence: meeting.sequence,
            booked_at: now,
          })
          .onConflict((conflict) => conflict.columns(['rep', 'start_at']).doNothing())
          .executeTakeFirst()
        // Taken meanwhile: the old meeting, deleted above, comes back with the rollback.
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new Taken()
        const params = await paramsOf(trx, meeting.requestId)
        const change = { meeting, previous, cancelled: false, params }
        await queueMeetingNotices(trx, meeting.requestId, notices(change), now)
        return { kind: 'booked', meeting, previous } as const
      })
    } catch (error) {
      if (error instanceof Taken) return { kind: 'taken' }
      throw error
    }
  }

  /**
   * The meetings of requests about to be erased, cancelled: the rep's cancellation (and the
   * CRM's event) queued apart from the requests, naming no visitor, so that the erasure that
   * follows takes the meetings and leaves the rep's calendar told.
   */
  async cancelForErasure(requestIds: readonly string[], notices: MeetingNotices): Promise<number> {
    if (requestIds.length === 0) return 0
    return this.dialect.transact(async (trx) => {
      const rows = await trx
        .selectFrom('lead_meetings')
        .selectAll()
        .where('request_id', 'in', requestIds)
        .execute()
      for (const row of rows) {
        const meeting = toMeeting(row)
        const change = { meeting, previous: meeting, cancelled: true, params: {} }
        await queueMeetingNotices(trx, meeting.requestId, notices(change), Date.now())
      }
      await trx.deleteFrom('lead_meetings').where('request_id', 'in', requestIds).execute()
      return rows.length
    })
  }

  /** Cancels the offer's meeting; resolves to it (for its cancellation), or null if none. */
  async cancel(
    tokenHash: string,
    notices: MeetingNotices,
    now = Date.now(),
  ): Promise<Meeting | null | 'unknown'> {
    return this.dialect.transact(async (trx) => {
      const offer = await trx
        .selectFrom('lead_bookings')
        .select('request_id')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now)
        .executeTakeFirst()
      if (offer === undefined) return 'unknown' as const
      const meeting = await this.meetingOf(trx, offer.request_id)
      if (meeting === null) return null
      await trx.deleteFrom('lead_meetings').where('request_id', '=', offer.request_id).execute()
      const params = await paramsOf(trx, meeting.requestId)
      const change = { meeting, previous: meeting, cancelled: true, params }
      await queueMeetingNotices(trx, meeting.requestId, notices(change), now)
      return meeting
    })
  }
}
