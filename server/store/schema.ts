// The store's tables as Kysely sees them: one schema for SQLite and PostgreSQL, made by the
// migrations in lead-store-migrations/ and queried by every lead-store-*.ts module.
/** The channels a request is delivered through. */
export const CHANNELS = ['email', 'webhook', 'whatsapp'] as const
export type Channel = (typeof CHANNELS)[number]

/** How long a delivery is retried for faults of its own before it is a dead letter: three days. */
export const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000

/** A delivery's columns as it is queued anew: tried at once, for RETRY_FOR_MS, held by nobody. */
export const queuedAnew = (now: number) =>
  ({
    state: 'pending',
    attempts: 0,
    next_attempt_at: now,
    retry_until: now + RETRY_FOR_MS,
    queued_at: now,
    locked_until: null,
  }) as const

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

export interface DeliveriesTable {
  request_id: string
  channel: Channel
  state: DeliveryState
  attempts: number
  /** Milliseconds since the epoch; bigint columns (PostgreSQL returns them as text). */
  next_attempt_at: number | string
  /** Past this (ms since the epoch) a delivery that still fails is a dead letter. */
  retry_until: number | string
  /** A worker holds the delivery until then; null when nobody does. */
  locked_until: number | string | null
  last_error: string | null
  delivered_at: string | null
  /** When the delivery was queued (or queued again by a resend), ms since the epoch. */
  queued_at: number | string | null
  /** E-mail only: the recipients that took the mail already, as a JSON array. */
  done_recipients: string | null
  /** E-mail only: the recipients that refused it for good, as a JSON array. */
  refused_recipients: string | null
}

/** How a channel delivers, shared by every server on the store. */
export interface ChannelsTable {
  channel: Channel
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

/** A notice to the people about delivery itself, carried by one channel for another. */
export interface NoticesTable {
  id: string
  /** The channel that carries the notice. */
  carrier: Channel
  type: NoticeType
  /** The channel the notice speaks of. */
  subject: Channel
  /** When the outage it speaks of began: one notice of each type per outage and carrier. */
  outage: number | string
  /** What the notice says, as JSON (NoticeData). */
  data: string
  created_at: string
  state: DeliveryState
  attempts: number
  next_attempt_at: number | string
  locked_until: number | string | null
  last_error: string | null
  delivered_at: string | null
}

/** A channel's outage and its end; a flood whose requests were held (its subject: the carrier); a WhatsApp message nobody read. */
export type NoticeType =
  'delivery.failing' | 'delivery.recovered' | 'demo_requests.held' | 'whatsapp.unread'

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

/** @internal whatsapp-store.ts queries it */
export interface LeadDatabase {
  lead_requests: RequestsTable
  lead_deliveries: DeliveriesTable
  lead_channels: ChannelsTable
  lead_notices: NoticesTable
  /** Where readiness writes a probe after a failed write; never holds a request. */
  lead_probe: { id: string; data: string }
  lead_whatsapp_turns: WhatsAppTurnsTable
  lead_idempotency_keys: IdempotencyKeysTable
  lead_whatsapp: WhatsAppTable
  lead_whatsapp_messages: WhatsAppMessagesTable
  lead_whatsapp_early_statuses: {
    wamid: string
    status: string
    at: number | string
    failure: string | null
    received_at: number | string
  }
}
