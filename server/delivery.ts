// The delivery worker: runs in the server's process and carries each stored request to people
// through every configured channel, each on its own (a failing webhook never re-sends the mail,
// nor the reverse). Deliveries live in the store (lead-store.ts), written with the request in
// one transaction; the worker takes the due ones (FOR UPDATE SKIP LOCKED on PostgreSQL, so with
// several servers each is sent by one), sends them, and records the outcome. A crash between a
// send and its record repeats that send after the hold (LEASE_MS) runs out, with the same
// Message-ID and webhook-id, so the repeat is recognisable.
// Temporary failures (SMTP 4xx, a refused or timed-out connection, webhook 5xx, 408, 429) are
// retried with exponential backoff and jitter for up to three days; permanent ones (SMTP 5xx,
// other webhook 4xx) and what is still failing then are dead letters, listed by
// `npm run outbox -- --failed` and sent again with `--resend`.
import type { FastifyBaseLogger } from 'fastify'
import nodemailer from 'nodemailer'
import { Webhook } from 'standardwebhooks'
import type { DeliveryConfig } from './config.js'
import { leadMail, webhookBody } from './lead-mail.js'
import type { Channel, Delivery, LeadStore } from './lead-store.js'
import type { OutboxRecord } from './outbox.js'

/** How long a worker holds a delivery it took; one that died lets it go after this. */
const LEASE_MS = 45_000
/** The first retry comes after about this; each doubles it, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 2_000
const MAX_BACKOFF_MS = 5 * 60_000
const BATCH = 20

export function deliveryChannels(config: DeliveryConfig): Channel[] {
  const channels: Channel[] = []
  if (config.email !== undefined) channels.push('email')
  if (config.webhook !== undefined) channels.push('webhook')
  return channels
}

/**
 * The wait before retry `attempt` (1 for the first): doubling, capped, with jitter.
 * @internal its tests use it too
 */
export function backoffMs(
  attempt: number,
  random = Math.random(),
  first = FIRST_BACKOFF_MS,
): number {
  const base = Math.min(first * 2 ** Math.max(attempt - 1, 0), MAX_BACKOFF_MS)
  return Math.round(base * (0.5 + random / 2))
}

/** How one send went. */
type Outcome = { ok: true; note?: string } | { ok: false; permanent: boolean; reason: string }

interface Sender {
  send(record: OutboxRecord): Promise<Outcome>
  close(): void
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** The domain a Message-ID names: the sender's. */
const domainOf = (from: string): string => {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from
  return address.split('@')[1]?.trim() || 'localhost'
}

/**
 * The Message-ID of a request's mail: the same on every attempt.
 * @internal its tests use it too
 */
export const messageIdOf = (id: string, from: string): string => `<lead-${id}@${domainOf(from)}>`

function emailSender(config: NonNullable<DeliveryConfig['email']>, timeZone: string): Sender {
  const url = new URL(config.smtpUrl)
  url.searchParams.set('connectionTimeout', '10000')
  url.searchParams.set('greetingTimeout', '10000')
  url.searchParams.set('socketTimeout', '30000')
  // A few connections kept open: a request's mail does not wait for a new SMTP session, and a
  // backlog drains over them side by side.
  url.searchParams.set('pool', 'true')
  url.searchParams.set('maxConnections', '5')
  const transport = nodemailer.createTransport(url.toString())
  return {
    async send(record) {
      const mail = leadMail(record, timeZone)
      const visitor = record.params.user_email ?? ''
      try {
        const info = await transport.sendMail({
          from: config.from,
          to: config.to,
          ...(visitor !== '' && {
            replyTo: { name: record.params.user_name ?? '', address: visitor },
          }),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: messageIdOf(record.id, config.from),
          headers: { 'X-Gaspre-Request-Id': record.id },
        })
        const rejected = info.rejected.map(String)
        return rejected.length > 0
          ? { ok: true, note: `rechazado para ${rejected.join(', ')}` }
          : { ok: true }
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode
        const reason =
          code !== undefined
            ? `SMTP ${code}: ${((error as { response?: string }).response ?? message(error)).slice(0, 300)}`
            : message(error).slice(0, 300)
        return { ok: false, permanent: code !== undefined && code >= 500, reason }
      }
    },
    close: () => transport.close(),
  }
}

/** Webhook answers worth another try: the receiver is down, busy or slow. */
const TEMPORARY_HTTP = (status: number): boolean =>
  status >= 500 || status === 408 || status === 429

function webhookSender(config: NonNullable<DeliveryConfig['webhook']>): Sender {
  const signer = new Webhook(config.secret)
  return {
    async send(record) {
      const body = webhookBody(record)
      // Signed at each attempt: receivers refuse a timestamp older than five minutes.
      const timestamp = new Date()
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'gaspre-lead-server',
        'webhook-id': record.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signer.sign(record.id, timestamp, body),
      }
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(15_000),
        })
        await response.body?.cancel()
        if (response.status >= 200 && response.status < 300) return { ok: true }
        return {
          ok: false,
          permanent: !TEMPORARY_HTTP(response.status),
          reason: `HTTP ${response.status}`,
        }
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause
        return {
          ok: false,
          permanent: false,
          reason: message(cause ?? error).slice(0, 300),
        }
      }
    },
    close: () => undefined,
  }
}

const CHANNEL_NAMES: Record<Channel, string> = { email: 'e-mail', webhook: 'webhook' }

export class DeliveryWorker {
  private readonly senders = new Map<Channel, Sender>()
  private readonly failing = new Set<Channel>()
  private log: FastifyBaseLogger | null = null
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false
  private storeFailing = false
  private stopped = false
  private readonly pollMs: number
  private readonly firstBackoffMs: number

  constructor(
    private readonly store: LeadStore,
    config: DeliveryConfig,
    options: { multiServer?: boolean; pollMs?: number; firstBackoffMs?: number } = {},
  ) {
    this.firstBackoffMs = options.firstBackoffMs ?? FIRST_BACKOFF_MS
    if (config.email !== undefined) {
      this.senders.set('email', emailSender(config.email, config.timeZone))
    }
    if (config.webhook !== undefined) this.senders.set('webhook', webhookSender(config.webhook))
    // Other servers' requests are only seen by polling; this server's own are kicked.
    this.pollMs = options.pollMs ?? (options.multiServer === true ? 2_000 : 5_000)
  }

  /** Starts delivering, beginning with whatever was pending when the server last stopped. */
  start(log: FastifyBaseLogger): void {
    this.log = log
    this.kick()
  }

  /** A request was stored (or a timer ran out): deliver what is due now. */
  kick(): void {
    if (this.stopped || this.log === null) return
    if (this.running !== null) {
      this.again = true
      return
    }
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.running = this.drain()
      .then(() => {
        if (this.storeFailing) {
          this.storeFailing = false
          this.log?.info(
            { event: 'delivery-store-recovered' },
            'the store answers the worker again',
          )
        }
      })
      .catch((error: unknown) => {
        // Said once while the store stays out of reach (a database restarting), not every poll.
        if (this.storeFailing) return
        this.storeFailing = true
        this.log?.error(
          { event: 'delivery-store-failing', err: error },
          'the delivery worker cannot read the store; retrying',
        )
      })
      .finally(() => {
        this.running = null
        if (this.stopped) return
        if (this.again) {
          this.again = false
          this.kick()
        } else {
          this.timer = setTimeout(() => this.kick(), this.pollMs)
          this.timer.unref()
        }
      })
  }

  private async drain(): Promise<void> {
    const channels = [...this.senders.keys()]
    for (;;) {
      if (this.stopped) return
      const due = await this.store.claimDue(channels, BATCH, LEASE_MS)
      if (due.length === 0) return
      await Promise.all(due.map(({ delivery, record }) => this.deliver(delivery, record)))
      if (due.length < BATCH) return
    }
  }

  private async deliver(delivery: Delivery, record: OutboxRecord): Promise<void> {
    const { channel } = delivery
    const sender = this.senders.get(channel)
    if (sender === undefined) return
    const outcome = await sender.send(record)
    const contact = record.params.contact_number
    if (outcome.ok) {
      await this.store.markDelivered(record.id, channel, outcome.note ?? null)
      if (this.failing.delete(channel)) {
        this.log?.info(
          { event: 'delivery-recovered', channel },
          `${CHANNEL_NAMES[channel]} delivery works again`,
        )
      }
      this.log?.info(
        { event: 'delivered', id: record.id, contact, channel },
        `demo-request ${record.id} delivered by ${CHANNEL_NAMES[channel]}`,
      )
      return
    }
    if (!this.failing.has(channel)) {
      this.failing.add(channel)
      this.log?.warn(
        { event: 'delivery-failing', channel, reason: outcome.reason },
        `${CHANNEL_NAMES[channel]} delivery is failing (${outcome.reason}); retrying`,
      )
    }
    const next = Date.now() + backoffMs(delivery.attempts + 1, Math.random(), this.firstBackoffMs)
    if (outcome.permanent || next > delivery.retryUntil) {
      await this.store.markFailed(record.id, channel, outcome.reason)
      this.log?.error(
        { event: 'delivery-dead-letter', id: record.id, contact, channel, reason: outcome.reason },
        `demo-request ${record.id} NOT delivered by ${CHANNEL_NAMES[channel]}: ${outcome.reason} ` +
          '(npm run outbox -- --failed)',
      )
    } else {
      await this.store.markRetry(record.id, channel, next, outcome.reason)
    }
  }

  /** Stops taking deliveries; resolves once the sends in progress are recorded. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer !== null) clearTimeout(this.timer)
    await this.running
    for (const sender of this.senders.values()) sender.close()
  }
}
