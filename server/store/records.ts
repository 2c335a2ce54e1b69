// What the store hands out (requests, deliveries, notices, WhatsApp routes), made from its rows.
import type { Kysely } from 'kysely'
import type { DemoRequestRecord } from './record.js'
import {
  type Channel,
  type DeliveryState,
  type JobsTable,
  type LeadDatabase,
  type NoticeType,
  type RequestsTable,
  type WhatsAppMessagesTable,
  type WhatsAppTable,
  type Watched,
} from './schema.js'

/** One delivery of one request, as the worker and the sales team's commands see it. */
export interface Delivery {
  requestId: string
  channel: Channel
  state: DeliveryState
  attempts: number
  nextAttemptAt: number
  retryUntil: number
  lastError: string | null
  deliveredAt: string | null
  /** When it was queued, ms since the epoch. */
  queuedAt: number
  /** While a worker sends it: until when it holds it (ms since the epoch); null otherwise. */
  sendingUntil: number | null
  /** E-mail only: who took the mail already, and who refused it for good. */
  doneRecipients: string[]
  refusedRecipients: string[]
  /** When it last met a fault that looked like its channel's (ms since the epoch); null: none. */
  faultedAt: number | null
}

export interface StoredRequest extends DemoRequestRecord {
  deliveries: Delivery[]
  /** Where its WhatsApp messages went, with what each rep's phone said; null: no WhatsApp. */
  whatsapp: WhatsAppRoute | null
  /** Came past the total ceiling: stored, not delivered until released. */
  held: boolean
  /** The demo booked from it (decision 026): when, and with which rep (by e-mail). */
  meeting?: { start: number; end: number; rep: string } | null
}

/** One WhatsApp message to one rep, with its times (ms since the epoch) as the statuses say. */
export interface WhatsAppMessage {
  step: number
  rep: string
  wamid: string | null
  sentAt: number | null
  deliveredAt: number | null
  readAt: number | null
  failedAt: number | null
  failure: string | null
  escalateAt: number | null
  movedOnAt: number | null
  movedOnBecause: 'unread' | 'failed' | 'refused' | null
}

/** A request's WhatsApp route: chosen when it was stored, moved on when nobody reads it. */
export interface WhatsAppRoute {
  /** `+52`, `+34`, … or `*`. */
  territory: string
  /** The reps in the order they are tried. */
  reps: string[]
  step: number
  roundEnd: number
  exhaustedAt: number | null
  /** The rep it goes to now. */
  rep: string
  /** One per rep tried, in order (loaded for listings; empty for a job). */
  messages: WhatsAppMessage[]
}

/** A notice about delivery, as the worker sends it. */
export interface Notice {
  id: string
  /** The request it speaks of, when it names one (its mail threads under the request's). */
  requestId: string | null
  carrier: Channel
  type: NoticeType
  subject: Watched
  data: NoticeData
  createdAt: string
  attempts: number
  /** When it last met a fault that looked like its channel's (ms since the epoch); null: none. */
  faultedAt: number | null
}

/** What a notice says: the channel's outage, for the people who can mend it. */
export interface NoticeData {
  /** When the outage began, ISO 8601. */
  since: string
  /** When it ended, for a recovery. */
  until?: string
  /** Requests waiting for the channel when the notice was written (held ones, for a flood). */
  waiting: number
  /** A flood's notice as it grows, after the one that said it began. */
  grew?: boolean
  /** The last error the channel gave. */
  reason: string | null
  /** A WhatsApp message nobody read (type `whatsapp.unread`): who did not, and who is next. */
  unread?: UnreadData
  /** A request its channel keeps failing (`delivery.stuck`) or gave up (`delivery.dead_letter`). */
  stuck?: StuckData
  /** A booked meeting's invitation or event (`meeting.invitation`, `demo_request.booked`…). */
  meeting?: MeetingData
}

/** The request a `delivery.stuck` or `delivery.dead_letter` notice names, and how it went. */
export interface StuckData {
  requestId: string
  contactNumber: string
  name: string
  group: string
  /** Tries so far. */
  attempts: number
}

/** What a meeting's mail or event carries (decision 026). */
export interface MeetingData {
  /** REQUEST for a new or moved meeting, CANCEL for a cancelled one (RFC 5546). */
  method: 'REQUEST' | 'CANCEL'
  /** Whose mail it is; the CRM's events are the rep's. */
  for: 'visitor' | 'rep'
  /** Where the mail goes. */
  address: string
  uid: string
  sequence: number
  /** ms since the epoch */
  start: number
  end: number
  rep: { name: string; email: string }
  /** The visitor's address, the ATTENDEE; null in the cancellation an erasure sends the rep. */
  attendee: string | null
  room: string | null
  /** The booking address, to change or cancel (the visitor's mail only). */
  booking: string | null
  /** The zone the visitor's mail states the time in. */
  zone: string
  /** The request, for the rep's mail and the CRM; never in the visitor's mail. */
  request: { id: string; params: Record<string, string> } | null
}

export interface UnreadData {
  requestId: string
  contactNumber: string
  name: string
  group: string
  /** The rep who did not read it (or could not receive it). */
  rep: string
  because: 'unread' | 'failed' | 'refused'
  /** The Cloud API's words, for `failed` and `refused`. */
  failure: string | null
  /** The rep it goes to now; null when every rep was tried. */
  next: string | null
  /** Every rep tried so far, in order. */
  tried: string[]
  minutes: number
}

/** What a notice job carries (lead_jobs.payload). */
export interface NoticePayload {
  type: NoticeType
  subject: Watched
  createdAt: string
  data: NoticeData
}

const msOrNull = (value: number | string | null): number | null =>
  value === null ? null : Number(value)

/** Who took a mail already and who refused it for good (lead_jobs.progress). */
interface Recipients {
  done: string[]
  refused: string[]
}

/** A delivery job's progress, read: no recipient answered yet when it is null. */
export const recipients = (json: string | null): Recipients =>
  json === null ? { done: [], refused: [] } : (JSON.parse(json) as Recipients)

/** A delivery job's row as the worker and the listings see it. */
export const toDelivery = (row: JobsTable): Delivery => ({
  requestId: row.request_id!,
  // A delivery's lane is always a channel.
  channel: row.channel as Channel,
  state: row.state,
  attempts: row.attempts,
  nextAttemptAt: Number(row.next_attempt_at),
  retryUntil: Number(row.retry_until ?? Infinity),
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
  queuedAt: Number(row.queued_at),
  sendingUntil:
    row.locked_until !== null && Number(row.locked_until) > Date.now()
      ? Number(row.locked_until)
      : null,
  doneRecipients: recipients(row.progress).done,
  refusedRecipients: recipients(row.progress).refused,
  faultedAt: msOrNull(row.faulted_at),
})

/** A notice job's row as the worker sends it. */
export const toNotice = (row: JobsTable): Notice => {
  const payload = JSON.parse(row.payload!) as NoticePayload
  return {
    id: row.id,
    requestId: row.request_id,
    // A notice's lane is always the channel that carries it.
    carrier: row.channel as Channel,
    type: payload.type,
    subject: payload.subject,
    data: payload.data,
    createdAt: payload.createdAt,
    attempts: row.attempts,
    faultedAt: msOrNull(row.faulted_at),
  }
}

/** A route row (with its messages, for listings) as the store hands it out. */
export const toWhatsAppRoute = (
  row: WhatsAppTable,
  messages: readonly WhatsAppMessagesTable[] = [],
): WhatsAppRoute => {
  const reps = JSON.parse(row.reps) as string[]
  return {
    territory: row.territory,
    reps,
    step: row.step,
    roundEnd: row.round_end,
    exhaustedAt: msOrNull(row.exhausted_at),
    rep: reps[row.step % reps.length]!,
    messages: messages
      .filter((message) => message.request_id === row.request_id)
      .sort((a, b) => a.step - b.step)
      .map((message) => ({
        step: message.step,
        rep: message.rep,
        wamid: message.wamid,
        sentAt: msOrNull(message.sent_at),
        deliveredAt: msOrNull(message.delivered_at),
        readAt: msOrNull(message.read_at),
        failedAt: msOrNull(message.failed_at),
        failure: message.failure,
        escalateAt: msOrNull(message.escalate_at),
        movedOnAt: msOrNull(message.moved_on_at),
        movedOnBecause: message.moved_on_because as WhatsAppMessage['movedOnBecause'],
      })),
  }
}

export const toRecord = (row: RequestsTable): DemoRequestRecord => ({
  id: row.id,
  receivedAt: row.received_at,
  serviceId: row.service_id,
  templateId: row.template_id,
  params: JSON.parse(row.params) as Record<string, string>,
})

export const fromRecord = (record: DemoRequestRecord, held = false): RequestsTable => ({
  id: record.id,
  received_at: record.receivedAt,
  service_id: record.serviceId,
  template_id: record.templateId,
  params: JSON.stringify(record.params),
  held: held ? 1 : 0,
})

/** The WhatsApp routes of these requests, with every message of each unless told not to. */
export async function whatsAppRoutes(
  db: Kysely<LeadDatabase>,
  ids: readonly string[],
  { messages = true }: { messages?: boolean } = {},
): Promise<Map<string, WhatsAppRoute>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('lead_whatsapp')
    .selectAll()
    .where('request_id', 'in', ids)
    .execute()
  const sent =
    messages && rows.length > 0
      ? await db
          .selectFrom('lead_whatsapp_messages')
          .selectAll()
          .where('request_id', 'in', ids)
          .execute()
      : []
  return new Map(rows.map((row) => [row.request_id, toWhatsAppRoute(row, sent)]))
}
