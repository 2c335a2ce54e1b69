// The demo requests, as the app, its worker and `npm run outbox` know them: one service whose
// methods the routes and the command line call by name. A request accepted here is committed to
// the store with one pending delivery per configured channel, and the delivery worker
// (delivery/worker.ts) is woken to carry it to the sales team; one held past the total ceiling
// waits for a person to release or erase it (npm run outbox -- --held).
import type { FastifyBaseLogger } from 'fastify'
import type { DeliveryConfig } from '../settings/index.js'
import type {
  AlsoWrite,
  Channel,
  DemoRequestRecord,
  ErasureRule,
  LeadStore,
  Readiness,
  RequestFilter,
  StoredRequest,
  Watched,
} from '../store/index.js'
import { deliveryChannels, type DeliveryWorker } from '../delivery/index.js'
import {
  channelReports,
  deliveryHealth,
  type ChannelReport,
  type DeliveryHealth,
} from '../queue/index.js'
import { assignRep, type WhatsAppWebhookOptions } from '../channels/whatsapp/index.js'
import { requestsOf, type Person } from '../privacy/index.js'
import type { Bookings } from '../booking/index.js'

/**
 * A flood began: requests past the total ceiling are being held.
 * @internal its tests use it too
 */
export interface FloodEpisode {
  since: Date
  /** How many requests are held now, this episode's first among them. */
  held: number
}

/** What WhatsApp's status webhook checks a post with (its verify token and app secret). */
type WhatsAppKeys = Omit<WhatsAppWebhookOptions, 'receive'>

interface DemoRequestsParts {
  store: LeadStore
  /** The channels each stored request is delivered through; none: requests are only stored. */
  channels: readonly Channel[]
  /** The worker that delivers them, woken by each; none in a test that reads what is stored. */
  worker: DeliveryWorker | null
  /** How long a channel may fail before /healthz/delivery says so (LEADS_ALERT_AFTER_SECONDS). */
  alertAfterMs: number
  /** The WhatsApp channel, when it is on: whose turn each request is, the webhook's keys. */
  whatsapp?: Pick<DeliveryConfig, 'whatsapp' | 'phoneRegions'>
  /** The booking, when reps of the team file have calendars (decision 026). */
  bookings?: Bookings | null
}

export class DemoRequests {
  readonly store: LeadStore
  /** The channels each stored request is delivered through, in the store's order. */
  readonly channels: readonly Channel[]
  /** The keys of WhatsApp's status webhook, when that channel is on. */
  readonly whatsappKeys: WhatsAppKeys | null
  /** The booking of a meeting with the request's rep; null when no rep has a calendar. */
  readonly bookings: Bookings | null
  /** What /healthz/delivery watches: the channels, and the reps' calendars when they are read. */
  private readonly watched: readonly Watched[]
  private readonly worker: DeliveryWorker | null
  private readonly alertAfterMs: number
  /** Written with each request, in its transaction: the WhatsApp rep whose turn it is. */
  private readonly assignRep: ReturnType<typeof assignRep> | undefined

  /** As the settings configure delivery: their channels, through `worker`. */
  static delivering(
    store: LeadStore,
    delivery: DeliveryConfig,
    worker: DeliveryWorker | null,
    bookings: Bookings | null = null,
  ): DemoRequests {
    return new DemoRequests({
      store,
      channels: deliveryChannels(delivery),
      worker,
      alertAfterMs: delivery.alertAfterMs,
      whatsapp: delivery,
      bookings,
    })
  }

  constructor(parts: DemoRequestsParts) {
    this.store = parts.store
    this.channels = parts.channels
    this.worker = parts.worker
    this.alertAfterMs = parts.alertAfterMs
    const whatsapp = this.worker?.whatsapp != null ? parts.whatsapp?.whatsapp : undefined
    this.assignRep = whatsapp && assignRep(whatsapp.routes, parts.whatsapp?.phoneRegions ?? ['MX'])
    this.whatsappKeys = whatsapp
      ? { verifyToken: whatsapp.verifyToken, appSecret: whatsapp.appSecret }
      : null
    this.bookings = parts.bookings ?? null
    this.watched = this.bookings !== null ? [...this.channels, 'calendar'] : this.channels
  }

  /** Where the requests are stored: said at start, and by the app's readiness log. */
  get location(): string {
    return this.store.location
  }

  /**
   * Stores a request (resolves once it is committed, or rejects with a StoreWriteError) and
   * wakes the worker, which delivers it at once.
   */
  async accept(record: DemoRequestRecord, alsoWrite?: AlsoWrite): Promise<void> {
    await this.store.append(record, this.channels, this.assignRep, alsoWrite)
    this.worker?.kick()
  }

  /**
   * Stores a request that came past the total ceiling as held: nobody is told, the worker leaves
   * it until a person releases it. Resolves to how many are held now, or to null, storing
   * nothing, when `cap` are held already.
   */
  hold(record: DemoRequestRecord, cap: number, alsoWrite?: AlsoWrite): Promise<number | null> {
    return this.store.hold(record, this.channels, cap, this.assignRep, alsoWrite)
  }

  /**
   * Lets held requests go, one by its id or all of them: the worker sends them as any other.
   * Resolves to how many were released.
   */
  async release(requestId?: string): Promise<number> {
    const released = await this.store.releaseHeldRequests(requestId)
    if (released > 0) this.worker?.kick()
    return released
  }

  /** Erases every held request for good (`--erase-held`), with a record of the erasure. */
  eraseHeld(): ReturnType<LeadStore['erasure']['eraseHeld']> {
    return this.store.erasure.eraseHeld()
  }

  /** Puts failed deliveries (of one request, or all) back in the queue; resolves to how many. */
  async resendFailed(requestId?: string): Promise<number> {
    const queued = await this.store.queue.resendFailed(requestId)
    if (queued > 0) this.worker?.kick()
    return queued
  }

  /**
   * Erases requests with their deliveries (and meetings), keeping a record of the erasure
   * without data. A person's erasure first cancels their meetings: the rep's calendar is sent
   * the cancellation, which names no visitor.
   */
  async erase(
    ids: readonly string[],
    rule: ErasureRule,
  ): ReturnType<LeadStore['erasure']['eraseRequests']> {
    if (rule === 'person-request' && this.bookings !== null) {
      if ((await this.bookings.cancelForErasure(ids)) > 0) this.worker?.kick()
    }
    return this.store.erasure.eraseRequests(ids, rule)
  }

  /** The record of erasures, newest first. */
  erasures(): ReturnType<LeadStore['erasure']['erasures']> {
    return this.store.erasure.erasures()
  }

  /** One stored request by its id, or null. */
  request(id: string): Promise<StoredRequest | null> {
    return this.store.request(id)
  }

  /** The stored requests with their deliveries, newest first unless `filter` says, in pages. */
  requests(filter?: RequestFilter): AsyncGenerator<StoredRequest> {
    return this.store.requests(filter)
  }

  /** Every request a person sent (by their e-mail address or phone), for an export or erasure. */
  requestsOf(person: Person): Promise<StoredRequest[]> {
    return requestsOf(this.store, person)
  }

  /** How many requests are stored, held ones included. */
  count(): Promise<number> {
    return this.store.count()
  }

  /** How many requests are held. */
  heldCount(): Promise<number> {
    return this.store.heldCount()
  }

  /** A flood began to be held: each channel carries one notice to the sales team. */
  floodBegan(episode: FloodEpisode): void {
    void this.worker?.floodEpisode(episode, 'began')
  }

  /** A flood goes on, its held requests tenfold since last told: one more notice says how many. */
  floodGrew(episode: FloodEpisode): void {
    void this.worker?.floodEpisode(episode, 'grew')
  }

  /** Records the statuses of a signed post of WhatsApp's status webhook. */
  async receiveWhatsAppStatuses(
    statuses: Parameters<WhatsAppWebhookOptions['receive']>[0],
  ): Promise<void> {
    await this.worker?.whatsapp?.receiveStatuses(statuses)
  }

  /** Each channel's state and backlog, as the listing's header shows them. */
  channelReports(): Promise<ChannelReport[]> {
    return channelReports(this.store, this.channels, this.alertAfterMs)
  }

  /** How delivery is doing, for `/healthz/delivery`: the reps' calendars with the channels. */
  health(): Promise<DeliveryHealth> {
    return deliveryHealth(this.store, this.watched, this.alertAfterMs)
  }

  /** Whether a request of the largest size would be stored now, for `/readyz`. */
  readiness(): Promise<Readiness> {
    return this.store.readiness()
  }

  /** Tells `listener` when the store turns ready or not ready, once per change. */
  watchReadiness(listener: (state: Readiness) => void): void {
    this.store.watchReadiness(listener)
  }

  /** Starts delivering: what a killed predecessor held is free at once (SQLite), then the worker. */
  async start(log: FastifyBaseLogger): Promise<void> {
    if (this.store.kind === 'sqlite') await this.store.queue.releaseLeases()
    this.worker?.start(log)
    // The calendars' first read goes on in the background: a slow calendar never delays the
    // start, and until it is read the booking address answers 503 (the usual success message).
    void this.bookings?.start(log)
  }

  /** Stops the worker (a send in progress finishes or is cut), then closes the store. */
  async stop(): Promise<void> {
    try {
      await this.bookings?.stop()
      await this.worker?.stop()
    } finally {
      await this.store.close()
    }
  }
}
