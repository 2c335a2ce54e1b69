// The store's tables as Kysely sees them: one schema for SQLite and PostgreSQL, made by the
// migrations in migrations/ and queried by the store room's modules only.
/** The channels a request is delivered through. */
export const CHANNELS = ['email', 'webhook', 'whatsapp'] as const
export type Channel = (typeof CHANNELS)[number]
/**
 * What the channel state (lead_channels) and /healthz/delivery watch: the delivery channels, and
 * the reps' calendars, read for the booking (a channel that delivers nothing; decision 026).
 */
export type Watched = Channel | 'calendar'

/** How long a delivery is retried for faults of its own before it is a dead letter: three days. */
const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000

/**
 * A delivery's columns as it is queued anew: tried at once, for RETRY_FOR_MS, held by nobody,
 * with no fault met yet.
 */
export const queuedAnew = (now: number) =>
  ({
    state: 'pending',
    attempts: 0,
    next_attempt_at: now,
    retry_until: now + RETRY_FOR_MS,
    queued_at: now,
    locked_until: null,
    faulted_at: null,
  }) as const

/** The id of a request's delivery through `channel`: one per request and channel. */
export const deliveryJobId = (requestId: string, channel: Channel): string =>
  `${requestId}/${channel}`

/** 'held': the request came past the total ceiling and waits for a person to release it. */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'held'

export interface RequestsTable {
  id: string
  received_at: string
  service_id: string
  template_id: string
  /** The template params as a JSON object of strings. */
  params: string
  /** 1 while the request is held (it came past the total ceiling), else 0. */
  held: number
}

/**
 * What a job carries out: a request's delivery through one channel, a notice, or the escalation
 * of a WhatsApp message unread at its deadline (migration 070).
 */
export type JobKind = 'delivery' | 'notice' | 'escalation'

/**
 * The lane of the worker that works a job: a channel, or the escalations' own, which no
 * channel's hold can block (decision 021).
 */
type Lane = Channel | 'escalation'

/** The id of the escalation of a request's WhatsApp message of `step`: one per message. */
export const escalationJobId = (requestId: string, step: number): string =>
  `${requestId}/escalation/${step}`

/**
 * The one job queue (migration 050): every delivery and notice, with its lease, retries and
 * dead letter in the same columns. `channel` is the lane that sends it.
 */
export interface JobsTable {
  /** A delivery's is `deliveryJobId(request, channel)`; a notice's a UUID (its mails show it). */
  id: string
  kind: JobKind
  channel: Lane
  /** The request a delivery carries, or a WhatsApp notice speaks of; erased with it. */
  request_id: string | null
  state: DeliveryState
  attempts: number
  /** Milliseconds since the epoch; bigint columns (PostgreSQL returns them as text). */
  next_attempt_at: number | string
  /** Past this (ms since the epoch) a job that still fails is a dead letter; null: never. */
  retry_until: number | string | null
  /** When the job was queued (or queued again by a resend or a release), ms since the epoch. */
  queued_at: number | string
  /** A worker holds the job until then; null when nobody does. */
  locked_until: number | string | null
  last_error: string | null
  delivered_at: string | null
  /** A notice's `type/subject/outage`: one of each per carrier (a unique index). */
  once_key: string | null
  /** A notice's type, subject, text and time, as JSON (NoticePayload). */
  payload: string | null
  /** A mail's recipients that took it already and that refused it for good, as JSON. */
  progress: string | null
  /**
   * When the job last met a fault that looked like its channel's (ms since the epoch): a probe
   * takes the jobs that met none first, then the one that met it longest ago; and a job that
   * meets it again after the channel delivered others has a fault of its own (decision 024).
   */
  faulted_at: number | string | null
}

/** How a channel delivers, shared by every server on the store. */
export interface ChannelsTable {
  channel: Watched
  /** Null while the channel delivers; when its current outage began otherwise. */
  failing_since: number | string | null
  /** Channel faults in a row, for the probe's backoff. */
  failures: number
  last_error: string | null
  /** While failing: when the next probe (one delivery) may go; taken by one server. */
  next_probe_at: number | string | null
  last_success_at: number | string | null
  /** 1 once the failing notices of the current outage were queued (by one server). */
  outage_notified: number
}

/**
 * A channel's outage and its end; a flood whose requests were held (its subject: the carrier); a
 * WhatsApp message nobody read; a request one channel keeps failing to deliver while it delivers
 * others (past LEADS_ALERT_AFTER_SECONDS), and the same request given up as a dead letter.
 */
export type NoticeType =
  | 'delivery.failing'
  | 'delivery.recovered'
  | 'demo_requests.held'
  | 'whatsapp.unread'
  | 'delivery.stuck'
  | 'delivery.dead_letter'
  // A booked meeting (decision 026): its invitation by mail, its events for the CRM.
  | 'meeting.invitation'
  | 'demo_request.booked'
  | 'demo_request.booking_cancelled'

/** Whose turn it is in each WhatsApp territory: the round robin, shared by every server. */
export interface WhatsAppTurnsTable {
  /** `+52`, `+34`, … or `*` for the default. */
  territory: string
  /** Requests assigned in the territory so far. */
  turns: number | string
}

/** The WhatsApp route of one request: its reps in the order they are tried, and where it is. */
export interface WhatsAppTable {
  request_id: string
  territory: string
  /** The reps' numbers (E.164), as a JSON array, in the order they are tried. */
  reps: string
  /** The step it is at: the rep is reps[step % reps.length]. */
  step: number
  /** The first step past this round: each rep is tried once a round. */
  round_end: number
  /** When every rep of the round was tried and nobody read it (ms since the epoch). */
  exhausted_at: number | string | null
}

/** One message to one rep: what the Cloud API and its status webhook said of it. */
export interface WhatsAppMessagesTable {
  request_id: string
  step: number
  rep: string
  /** The Cloud API's id (`wamid.…`) once it took the message. */
  wamid: string | null
  /** When the Cloud API took it; the times below are the phone's, as the statuses say. */
  sent_at: number | string | null
  delivered_at: number | string | null
  read_at: number | string | null
  failed_at: number | string | null
  failure: string | null
  /** Unread by then (working hours counted), it goes to the next rep. */
  escalate_at: number | string | null
  /** When it went on to the next rep (unread, failed, or refused by the Cloud API). */
  moved_on_at: number | string | null
  /** Why it moved on: `unread`, `failed` or `refused`. */
  moved_on_because: string | null
}

/** A key the door was sent (Idempotency-Key) and what became of its request. */
export interface IdempotencyKeysTable {
  key: string
  /** SHA-256 of the key and the request in a canonical form: tells a retry from another request. */
  fingerprint: string
  /** When the key was first used (ms since the epoch); kept at least 24 hours from then. */
  created_at: number | string
  /** While its request is being stored: until then a retry is told to wait (409). */
  claimed_until: number | string | null
  /** The answer once the request is stored: its status and its JSON body (no personal data). */
  status: number | null
  answer: string | null
  request_id: string | null
}

/** A request's booking offer (migration 090): its rep, and its token's hash, never the token. */
export interface BookingsTable {
  request_id: string
  /** The rep, by their e-mail in the team file. */
  rep: string
  token_hash: string
  created_at: number | string
  expires_at: number | string
}

/** The meeting booked for a request: one start of one rep, unique among all meetings. */
export interface MeetingsTable {
  request_id: string
  rep: string
  start_at: number | string
  end_at: number | string
  /** The invitation's UID, kept across changes; SEQUENCE one higher at each. */
  uid: string
  sequence: number
  booked_at: number | string
}

/** Every table of the store, as the store room's modules query them. */
export interface LeadDatabase {
  lead_requests: RequestsTable
  lead_jobs: JobsTable
  lead_channels: ChannelsTable
  /** Where readiness writes a probe after a failed write; never holds a request. */
  lead_probe: { id: string; data: string }
  lead_whatsapp_turns: WhatsAppTurnsTable
  lead_idempotency_keys: IdempotencyKeysTable
  lead_whatsapp: WhatsAppTable
  lead_whatsapp_messages: WhatsAppMessagesTable
  lead_bookings: BookingsTable
  lead_meetings: MeetingsTable
  /** The visitors' invitation mails of the last day, by the address's SHA-256: at most 3 each. */
  lead_booking_mails: { address_hash: string; sent_at: number | string }
  lead_whatsapp_early_statuses: {
    wamid: string
    status: string
    at: number | string
    failure: string | null
    received_at: number | string
  }
}
