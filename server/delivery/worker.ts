// The delivery worker: runs in the server's process and carries each stored request to people
// through every configured channel. Each channel is a lane of its own, with a few sends side by
// side: a channel that hangs or fails never delays the other, nor one stuck send the others.
// Deliveries and notices are jobs of the store's one queue (store/queue.ts), a request's written
// with it in one transaction; a lane claims the due ones (FOR UPDATE SKIP LOCKED on PostgreSQL,
// so with several servers each is sent by one) and holds each while its send lasts (a lease it
// extends; SEND_DEADLINE_MS cuts the send), so a repeat happens only after a crash, with the
// same Message-ID and webhook-id.
//
// A send's outcome says who is to blame (queue/outcome.ts). A fault of the channel (a password
// rotated, a CRM that answers 401 or 410, a server down) holds the channel, not the request: its
// deliveries stay pending, uncounted, while one delivery at a time probes it with a backoff
// capped at a minute, each probe another waiting job in turn; when one goes through, everything
// held goes out. Once a channel has failed for LEADS_ALERT_AFTER_SECONDS the other channels carry
// a notice (one per outage, also with several servers), and one more when it recovers. A fault
// that one job keeps meeting while the channel delivers others is that job's, never the
// channel's (decision 024): it is retried on its own backoff, each try logged, named in a notice
// once it has waited LEADS_ALERT_AFTER_SECONDS, and a dead letter (with one more notice) when its
// three days are over. Only a fault of the request's own (this mail refused at the end of DATA,
// this body refused with 422), shown by the channel delivering others meanwhile, makes a dead
// letter at once, listed by `npm run outbox -- --failed`. WhatsApp escalations are jobs of a lane
// of their own (follow-up.ts), worked on each poll whatever the channels' state.
import type { FastifyBaseLogger } from 'fastify'
import type { DeliveryConfig } from '../settings/index.js'
import { CHANNEL_NAMES } from '../channels/mail/index.js'
import {
  CHANNELS,
  jobRef,
  type Channel,
  type ChannelState,
  type Job,
  type JobRef,
  type LeadStore,
  type Watched,
} from '../store/index.js'
import { mailSender } from '../channels/mail/index.js'
import { type Outcome, type Sender } from '../queue/index.js'
import { errorText } from '../text/index.js'
import { webhookSender } from '../channels/webhook/index.js'
import { WhatsAppFollowUp } from '../channels/whatsapp/index.js'
import { whatsappSender } from '../channels/whatsapp/index.js'

/** The longest one send may take, from the connection to the answer: then it is cut. */
const SEND_DEADLINE_MS = 60_000
/**
 * How long a worker holds a job it took; it extends the hold every quarter of it while the send
 * lasts (up to its deadline), so a job is never sent twice by two servers, and one a crashed
 * server held goes out again within this time.
 */
const LEASE_MS = 20_000
/** The first retry comes after about this; each doubles it, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 2_000
const MAX_BACKOFF_MS = 5 * 60_000
/** A failing channel is probed at least this often. */
const MAX_PROBE_INTERVAL_MS = 60_000
/** A channel that delivered this long before a request was queued still vouches for itself. */
const PROOF_WINDOW_MS = 60_000
/** Sends side by side on one channel. */
const LANE_WIDTH: Record<Channel, number> = { email: 4, webhook: 8, whatsapp: 4 }
/** The channels that carry notices: a WhatsApp template can only tell a rep of a request. */
const carriesNotices = (channel: Channel): boolean => channel !== 'whatsapp'

/** What each send came to, for the metrics. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'channel_fault' | 'dead_letter'

export interface DeliveryObserver {
  outcome(channel: Channel, outcome: DeliveryOutcome): void
}

/** The channels the configuration sets up, in the store's order of channels. */
export const deliveryChannels = (config: DeliveryConfig): Channel[] =>
  CHANNELS.filter((channel) => config[channel] !== undefined)

/**
 * The wait before retry `attempt` (1 for the first): doubling, capped, with jitter.
 * @internal its tests use it too
 */
export function backoffMs(
  attempt: number,
  random = Math.random(),
  first = FIRST_BACKOFF_MS,
  max = MAX_BACKOFF_MS,
): number {
  const base = Math.min(first * 2 ** Math.max(attempt - 1, 0), max)
  return Math.round(base * (0.5 + random / 2))
}

/**
 * Whether a fault that looked like the channel's is this job's own (decision 024): the job met
 * one before, and the channel, failing for nobody else now, delivered others since then; or the
 * job was already retried for it.
 */
function faultOfItsOwn(job: Job, state: ChannelState): boolean {
  const { faultedAt, attempts } = job.kind === 'request' ? job.delivery : job.notice
  if (faultedAt === null || state.failingSince !== null) return false
  return attempts > 0 || (state.lastSuccessAt !== null && state.lastSuccessAt > faultedAt)
}

interface Lane {
  channel: Channel
  sender: Sender
  width: number
  /** The sends in progress, each with what aborts it. */
  inFlight: Map<AbortController, { ref: JobRef; sent: Promise<void> }>
  filling: boolean
  again: boolean
}

/** @internal the tests' delivery harness passes them too */
export interface WorkerOptions {
  multiServer?: boolean
  pollMs?: number
  firstBackoffMs?: number
  /** How long a channel may fail before the others carry a notice (LEADS_ALERT_AFTER_SECONDS). */
  alertAfterMs?: number
  sendDeadlineMs?: number
  /** How long a job is held; renewed at a quarter of it while its send lasts. */
  leaseMs?: number
  observer?: DeliveryObserver
  /** The clock of the WhatsApp escalation (a seam for tests): Date.now otherwise. */
  now?: () => number
  /** What else is watched as a channel, with no lane of its own: the reps' calendars. */
  watch?: readonly Watched[]
}

export class DeliveryWorker {
  private readonly lanes = new Map<Channel, Lane>()
  private log: FastifyBaseLogger | null = null
  private timer: NodeJS.Timeout | null = null
  private storeFailing = false
  private stopped = false
  private readonly pollMs: number
  private readonly firstBackoffMs: number
  private readonly alertAfterMs: number
  private readonly sendDeadlineMs: number
  private readonly observer: DeliveryObserver | undefined
  private readonly watch: readonly Watched[]
  /** Statuses and escalation of the WhatsApp channel; null without it. */
  readonly whatsapp: WhatsAppFollowUp | null

  constructor(
    private readonly store: LeadStore,
    config: DeliveryConfig,
    options: WorkerOptions = {},
  ) {
    this.firstBackoffMs = options.firstBackoffMs ?? FIRST_BACKOFF_MS
    this.alertAfterMs = options.alertAfterMs ?? 600_000
    this.sendDeadlineMs = options.sendDeadlineMs ?? SEND_DEADLINE_MS
    this.leaseMs = options.leaseMs ?? LEASE_MS
    this.observer = options.observer
    this.watch = options.watch ?? []
    const now = options.now ?? Date.now
    // The mail that says a rep did not read a WhatsApp message goes by mail alone.
    const unreadCarriers: Channel[] = config.email !== undefined ? ['email'] : []
    const regions = config.phoneRegions ?? ['MX']
    const senders: [Channel, Sender | null][] = [
      ['email', config.email ? mailSender(config.email, config.timeZone, regions) : null],
      ['webhook', config.webhook ? webhookSender(config.webhook, config.timeZone, regions) : null],
      [
        'whatsapp',
        config.whatsapp
          ? whatsappSender(config.whatsapp, {
              store,
              timeZone: config.timeZone,
              regions,
              carriers: unreadCarriers,
              now,
            })
          : null,
      ],
    ]
    this.whatsapp = config.whatsapp
      ? new WhatsAppFollowUp(store, config.whatsapp, {
          carriers: unreadCarriers,
          now,
          moved: () => this.kick(),
          log: () => this.log,
          leaseMs: this.leaseMs,
        })
      : null
    for (const [channel, sender] of senders) {
      if (sender === null) continue
      const width = LANE_WIDTH[channel]
      this.lanes.set(channel, {
        channel,
        sender,
        width,
        inFlight: new Map(),
        filling: false,
        again: false,
      })
    }
    // Other servers' requests and a channel's probes are only seen by polling; this server's
    // own requests are kicked.
    this.pollMs = options.pollMs ?? (options.multiServer === true ? 2_000 : 5_000)
  }

  private readonly leaseMs: number
  private heartbeat: NodeJS.Timeout | null = null

  /** Extends the hold on every job in progress. */
  private async extendLeases(): Promise<void> {
    const refs = [...this.lanes.values()].flatMap((lane) =>
      [...lane.inFlight.values()].map((each) => each.ref),
    )
    if (refs.length === 0) return
    try {
      await this.store.queue.extendLeases(refs, this.leaseMs)
    } catch (error) {
      this.storeFails(error)
    }
  }

  /** Starts delivering, beginning with whatever was pending when the server last stopped. */
  start(log: FastifyBaseLogger): void {
    this.log = log
    this.heartbeat = setInterval(() => void this.extendLeases(), this.leaseMs / 4)
    this.heartbeat.unref()
    this.tick()
  }

  /** A request was stored: deliver what is due now. */
  kick(): void {
    if (this.stopped || this.log === null) return
    for (const lane of this.lanes.values()) void this.fill(lane)
  }

  private tick(): void {
    if (this.stopped) return
    this.kick()
    void this.checkOutages()
    void this.escalateUnread()
    this.timer = setTimeout(() => this.tick(), this.pollMs)
    this.timer.unref()
  }

  private storeWorks(): void {
    if (!this.storeFailing) return
    this.storeFailing = false
    this.log?.info({ event: 'delivery-store-recovered' }, 'the store answers the worker again')
  }

  private storeFails(error: unknown): void {
    // Said once while the store stays out of reach (a database restarting), not every poll.
    if (this.storeFailing) return
    this.storeFailing = true
    this.log?.error(
      { event: 'delivery-store-failing', err: error },
      'the delivery worker cannot read the store; retrying',
    )
  }

  /** Takes as many jobs as the lane has room for; a failing channel gets one probe at a time. */
  private async fill(lane: Lane): Promise<void> {
    if (lane.filling) {
      lane.again = true
      return
    }
    lane.filling = true
    try {
      do {
        lane.again = false
        if (this.stopped) return
        const state = (await this.store.channels.states([lane.channel])).get(lane.channel)!
        if (state.failingSince !== null) {
          if (lane.inFlight.size > 0) break
          // Held for as long as the probe's send may last: one probe at a time, on every server.
          if (
            !(await this.store.channels.takeProbe(lane.channel, this.sendDeadlineMs + this.leaseMs))
          )
            break
          const [probe] = await this.store.queue.claim(lane.channel, 1, this.leaseMs, {
            probe: true,
          })
          if (probe === undefined) await this.store.channels.releaseProbe(lane.channel)
          else this.run(lane, probe)
          break
        }
        const room = lane.width - lane.inFlight.size
        if (room <= 0) break
        const jobs = await this.store.queue.claim(lane.channel, room, this.leaseMs)
        for (const job of jobs) this.run(lane, job)
        // A full take: there may be more.
        if (jobs.length === room && lane.inFlight.size < lane.width) lane.again = true
      } while (lane.again)
      this.storeWorks()
    } catch (error) {
      this.storeFails(error)
    } finally {
      lane.filling = false
    }
  }

  /** Sends one job under its deadline, stores the outcome, and takes the next. */
  private run(lane: Lane, job: Job): void {
    const controller = new AbortController()
    const deadline = setTimeout(
      () =>
        controller.abort(
          new Error(`no answer within ${Math.round(this.sendDeadlineMs / 1000)} s: cut`),
        ),
      this.sendDeadlineMs,
    )
    const startedAt = Date.now()
    const ref = jobRef(job)
    const sent = (async () => {
      let outcome: Outcome
      try {
        outcome = await lane.sender.send(job, controller.signal, (answers) =>
          this.store.queue.recordRecipients(ref, answers.done, answers.refused),
        )
      } catch (error) {
        outcome = { kind: 'channel-fault', reason: errorText(error) }
      } finally {
        clearTimeout(deadline)
      }
      // Cut by a stop: put back as it was, for the next start (or another server) to send.
      if (this.stopped && controller.signal.aborted) return this.store.queue.putBack(ref, null)
      await this.settle(lane, job, outcome, startedAt)
    })()
      .catch((error: unknown) => this.storeFails(error))
      .finally(() => {
        lane.inFlight.delete(controller)
        if (!this.stopped) void this.fill(lane)
      })
    lane.inFlight.set(controller, { ref, sent })
  }

  private async settle(lane: Lane, job: Job, sent: Outcome, startedAt: number): Promise<void> {
    const { channel } = lane
    const ref = jobRef(job)
    const name = CHANNEL_NAMES[channel]
    const about =
      job.kind === 'request'
        ? { id: job.record.id, contact: job.record.params.contact_number }
        : { notice: job.notice.id, type: job.notice.type }
    const what =
      job.kind === 'request' ? `demo-request ${job.record.id}` : `notice ${job.notice.type}`

    let outcome = sent
    // Whose the fault is: the channel's, unless this job keeps meeting it while others go through.
    let itsOwn = false
    if (outcome.kind === 'channel-fault') {
      const state = (await this.store.channels.states([channel])).get(channel)!
      itsOwn = faultOfItsOwn(job, state)
      if (!itsOwn) {
        await this.store.queue.putBack(ref, outcome.reason)
        this.observer?.outcome(channel, 'channel_fault')
        const { began } = await this.store.channels.recordFault(
          channel,
          outcome.reason,
          startedAt,
          (failures) =>
            backoffMs(failures, Math.random(), this.firstBackoffMs, MAX_PROBE_INTERVAL_MS),
        )
        if (began) {
          this.log?.warn(
            { event: 'delivery-failing', channel, reason: outcome.reason },
            `${name} delivery is failing (${outcome.reason}): its requests wait, nothing is lost; ` +
              'probing it with one delivery at a time',
          )
        }
        return
      }
      outcome = { kind: 'retry', reason: outcome.reason }
    }

    const delivered = outcome.kind === 'delivered'
    const recovered = await this.store.channels.recordWorks(channel, delivered)
    if (recovered !== null) await this.recovered(channel, recovered)

    if (outcome.kind === 'delivered') {
      await this.store.queue.markDelivered(ref, outcome.note ?? null)
      this.observer?.outcome(channel, 'delivered')
      this.log?.info(
        { event: 'delivered', channel, ...about },
        `${what} delivered by ${CHANNEL_NAMES[channel]}`,
      )
      return
    }

    const attempts = job.kind === 'request' ? job.delivery.attempts : job.notice.attempts
    const wait = Math.max(
      backoffMs(attempts + 1, Math.random(), this.firstBackoffMs),
      outcome.kind === 'retry' ? (outcome.waitMs ?? 0) : 0,
    )
    const next = Date.now() + wait
    const proven =
      outcome.kind === 'rejected' &&
      (outcome.proven || job.kind === 'notice' || (await this.deliveredOthers(channel, job)))
    const expired = job.kind === 'request' && next > job.delivery.retryUntil
    if (proven || expired) {
      await this.store.queue.markFailed(ref, outcome.reason)
      this.observer?.outcome(channel, 'dead_letter')
      this.log?.error(
        { event: 'delivery-dead-letter', channel, reason: outcome.reason, ...about },
        `${what} NOT delivered by ${name}: ${outcome.reason} (npm run outbox -- --failed)`,
      )
      // A WhatsApp request no rep could receive has had its mail already (store/whatsapp.ts).
      if (job.kind === 'request' && !(channel === 'whatsapp' && outcome.kind === 'rejected')) {
        await this.tellOfStuck('delivery.dead_letter', job, channel, outcome.reason)
      }
      return
    }
    const reason =
      outcome.kind === 'rejected'
        ? `${outcome.reason} (se reintenta hasta que ${name} entregue otras solicitudes)`
        : outcome.reason
    await this.store.queue.markRetry(ref, next, reason, { faulted: itsOwn })
    this.observer?.outcome(channel, 'retried')
    // Each try of a job that keeps failing is said, with its request and the error.
    this.log?.warn(
      {
        event: 'delivery-retry',
        channel,
        reason: outcome.reason,
        attempts: attempts + 1,
        nextAttemptAt: new Date(next).toISOString(),
        ...about,
      },
      `${what} not delivered by ${name} (${outcome.reason}): tried again in ${Math.ceil(wait / 1000)} s`,
    )
    if (job.kind === 'request' && Date.now() - job.delivery.queuedAt >= this.alertAfterMs) {
      await this.tellOfStuck('delivery.stuck', job, channel, outcome.reason)
    }
  }

  /**
   * Names a request that `channel` keeps failing to deliver (past LEADS_ALERT_AFTER_SECONDS), or
   * gave up on, in one notice per request on every channel that carries notices (the failing one
   * too: it delivers others).
   */
  private async tellOfStuck(
    type: 'delivery.stuck' | 'delivery.dead_letter',
    job: Extract<Job, { kind: 'request' }>,
    channel: Channel,
    reason: string,
  ): Promise<void> {
    const { record, delivery } = job
    const carriers = [...this.lanes.keys()].filter(carriesNotices)
    await this.store.queue.queueNotices(
      {
        type,
        subject: channel,
        outage: delivery.queuedAt,
        once: record.id,
        requestId: record.id,
        data: {
          since: new Date(delivery.queuedAt).toISOString(),
          waiting: 1,
          reason,
          stuck: {
            requestId: record.id,
            contactNumber: record.params.contact_number ?? '',
            name: record.params.user_name ?? '',
            group: record.params.user_group ?? '',
            attempts: delivery.attempts + 1,
          },
        },
      },
      carriers,
    )
    this.kick()
  }

  /**
   * Whether the channel delivered other work while this request waited (or just before it was
   * queued): then a refusal is this request's own. Otherwise it waits, for a refusal of every
   * body (a CRM whose schema changed) is the channel's, and /healthz/delivery says so in time.
   */
  private async deliveredOthers(channel: Channel, job: Job): Promise<boolean> {
    if (job.kind !== 'request') return true
    const state = (await this.store.channels.states([channel])).get(channel)!
    return (
      state.lastSuccessAt !== null && state.lastSuccessAt >= job.delivery.queuedAt - PROOF_WINDOW_MS
    )
  }

  /** The channel works again: said once, and told to those who were told it failed. */
  private async recovered(
    channel: Watched,
    outage: { since: number; notified: boolean; reason: string | null },
  ): Promise<void> {
    const waiting = await this.waitingOn(channel)
    this.log?.info(
      {
        event: 'delivery-recovered',
        channel,
        since: new Date(outage.since).toISOString(),
        waiting,
      },
      `${CHANNEL_NAMES[channel]} delivery works again; ${waiting} waiting requests go out now`,
    )
    if (!outage.notified) return
    const carriers = [...this.lanes.keys()].filter(
      (other) => other !== channel && carriesNotices(other),
    )
    await this.store.queue.queueNotices(
      {
        type: 'delivery.recovered',
        subject: channel,
        outage: outage.since,
        data: {
          since: new Date(outage.since).toISOString(),
          until: new Date().toISOString(),
          waiting,
          reason: outage.reason,
        },
      },
      carriers,
    )
    this.kick()
  }

  /** WhatsApp messages unread past their deadline go to the next rep. */
  private async escalateUnread(): Promise<void> {
    try {
      await this.whatsapp?.escalateUnread()
    } catch (error) {
      this.storeFails(error)
    }
  }

  /** The deliveries waiting on a channel; none on one with no lane (a calendar). */
  private async waitingOn(channel: Watched): Promise<number> {
    if (channel === 'calendar') return 0
    return (await this.store.queue.backlogs([channel])).get(channel)!.pending
  }

  /**
   * Something watched as a channel without a lane (the reps' calendars) failed, for a reason
   * that fails it all: held as a lane's fault is, and told after LEADS_ALERT_AFTER_SECONDS.
   */
  async watchedFault(channel: Watched, reason: string, startedAt: number): Promise<void> {
    await this.store.channels.recordFault(channel, reason, startedAt, () => MAX_PROBE_INTERVAL_MS)
  }

  /** It works (again): an outage it ends is said, and told to those who were told of it. */
  async watchedWorks(channel: Watched): Promise<void> {
    const recovered = await this.store.channels.recordWorks(channel, true)
    if (recovered !== null) await this.recovered(channel, recovered)
  }

  /** A channel failing for LEADS_ALERT_AFTER_SECONDS: the other channels carry one notice. */
  private async checkOutages(): Promise<void> {
    try {
      const lanes = [...this.lanes.keys()]
      const channels: Watched[] = [...lanes, ...this.watch]
      const states = await this.store.channels.states(channels)
      for (const state of states.values()) {
        const since = state.failingSince
        if (since === null || state.outageNotified) continue
        if (Date.now() - since < this.alertAfterMs) continue
        if (!(await this.store.channels.claimOutageNotice(state.channel, since))) continue
        const waiting = await this.waitingOn(state.channel)
        const carriers = lanes.filter((other) => other !== state.channel && carriesNotices(other))
        await this.store.queue.queueNotices(
          {
            type: 'delivery.failing',
            subject: state.channel,
            outage: since,
            data: { since: new Date(since).toISOString(), waiting, reason: state.lastError },
          },
          carriers,
        )
        this.log?.error(
          {
            event: 'delivery-alert',
            channel: state.channel,
            since: new Date(since).toISOString(),
            waiting,
            carriers,
          },
          `${CHANNEL_NAMES[state.channel]} delivery has failed since ${new Date(since).toISOString()} ` +
            `with ${waiting} requests waiting` +
            (carriers.length > 0
              ? `: notice sent by ${carriers.map((each) => CHANNEL_NAMES[each]).join(', ')}`
              : ': no other channel to tell anyone (watch /healthz/delivery)'),
        )
        this.kick()
      }
      this.storeWorks()
    } catch (error) {
      this.storeFails(error)
    }
  }

  /**
   * A flood began to be held, or grew tenfold since the sales team was told: each channel
   * carries one notice of it (one per episode and count, also with several servers).
   */
  async floodEpisode(
    episode: { since: Date; held: number },
    news: 'began' | 'grew' = 'began',
  ): Promise<void> {
    try {
      for (const carrier of this.lanes.keys()) {
        await this.store.queue.queueNotices(
          {
            type: 'demo_requests.held',
            subject: carrier,
            outage: episode.since.getTime(),
            ...(news === 'grew' && { step: episode.held }),
            data: {
              since: episode.since.toISOString(),
              waiting: episode.held,
              reason: null,
              ...(news === 'grew' && { grew: true }),
            },
          },
          [carrier],
        )
      }
      this.kick()
    } catch (error) {
      this.storeFails(error)
    }
  }

  /**
   * Stops taking deliveries; the sends in progress are cut at once and put back as they were
   * (the next start, or another server, sends them), so a stop never waits on a peer.
   */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer !== null) clearTimeout(this.timer)
    if (this.heartbeat !== null) clearInterval(this.heartbeat)
    const sends: Promise<void>[] = []
    for (const lane of this.lanes.values()) {
      for (const [controller, { sent }] of lane.inFlight) {
        controller.abort(new Error('the server is stopping'))
        sends.push(sent)
      }
    }
    await Promise.all(sends)
  }
}
