// Prometheus metrics (prom-client) on a listener of their own, on METRICS_HOST:METRICS_PORT
// (127.0.0.1 unless told) and never on the public port: what waits on each channel and since
// when, deliveries by outcome, dead letters, held requests, whether each channel is up and since
// when it fails, and the process's defaults. Names follow Prometheus's conventions (gaspre_
// prefix, base units, _total counters only); labels hold channel names and outcomes only, never
// personal data.
//
// The gauges an alert is written on are read from the store at each scrape, and the moments are
// timestamps (Unix seconds), not ages or `for:` clocks: a restarted server, or any server of
// several on one PostgreSQL, says the same, so an alert keeps its clock across restarts and
// fires once per fleet (decision 025; the rules are in docs/production.md).
import { createServer, type Server } from 'node:http'
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { channelReports, type ChannelReport } from './queue/index.js'
import type { DeliveryObserver } from './delivery/index.js'
import type { LeadStore, Watched } from './store/index.js'

/** What one scrape reads from the store. */
interface StoreFigures {
  reports: ChannelReport[]
  held: number
}

const seconds = (ms: number | null): number => (ms === null ? 0 : ms / 1000)

/** One gauge per channel: its name, its help, and its value from the channel's report. */
const CHANNEL_GAUGES: [string, string, (report: ChannelReport, now: number) => number][] = [
  [
    'gaspre_deliveries_pending',
    'Deliveries of demo requests waiting on each channel.',
    (report) => report.backlog.pending,
  ],
  [
    'gaspre_delivery_oldest_pending_age_seconds',
    'How long the longest-waiting delivery of each channel has waited; 0 when none waits.',
    ({ backlog }, now) =>
      backlog.oldestQueuedAt === null ? 0 : (now - backlog.oldestQueuedAt) / 1000,
  ],
  [
    'gaspre_delivery_oldest_pending_since_seconds',
    'When the longest-waiting delivery of each channel was queued (Unix time); 0 when none waits.',
    ({ backlog }) => seconds(backlog.oldestQueuedAt),
  ],
  [
    'gaspre_dead_letters',
    'Deliveries that failed for good and wait to be re-sent (npm run outbox -- --failed).',
    (report) => report.backlog.failed,
  ],
  [
    'gaspre_channel_up',
    '1 while a channel delivers, 0 while it fails.',
    (report) => (report.state.failingSince === null ? 1 : 0),
  ],
  [
    'gaspre_channel_failing_since_seconds',
    'When the current outage of a channel began (Unix time); 0 while it delivers.',
    ({ state }) => seconds(state.failingSince),
  ],
]

/**
 * prom-client's defaults, less the three gauges it names `…_total` (`promtool check metrics`:
 * "non-counter metrics should not have _total suffix"): each is the sum of the gauge beside it
 * that it repeats by type (`nodejs_active_handles{type}` and so on).
 */
const REPEATED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]

export interface DeliveryMetrics {
  observer: DeliveryObserver
  /** The metrics as Prometheus reads them, the store's figures read now. */
  scrape(): Promise<{ contentType: string; text: string }>
}

export function deliveryMetrics(
  store: LeadStore,
  /** The delivery channels, and what else is watched as one (the reps' calendars). */
  channels: readonly Watched[],
  alertAfterMs: number,
): DeliveryMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  for (const name of REPEATED_DEFAULTS) registry.removeSingleMetric(name)
  const deliveries = new Counter({
    name: 'gaspre_deliveries_total',
    help: 'Sends through each channel by outcome: delivered, retried, channel_fault, dead_letter.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  })
  // Read from the store once per scrape, before the gauges are collected, so that every server
  // on one PostgreSQL says the same.
  let latest: StoreFigures = { reports: [], held: 0 }
  for (const [name, help, value] of CHANNEL_GAUGES) {
    new Gauge({
      name,
      help,
      labelNames: ['channel'] as const,
      registers: [registry],
      collect() {
        const now = Date.now()
        for (const report of latest.reports) {
          this.set({ channel: report.state.channel }, value(report, now))
        }
      },
    })
  }
  new Gauge({
    name: 'gaspre_requests_held',
    help: 'Demo requests held in a flood, waiting for a person to release or erase them (npm run outbox -- --held).',
    registers: [registry],
    collect() {
      this.set(latest.held)
    },
  })
  for (const channel of channels) {
    if (channel === 'calendar') continue
    for (const outcome of ['delivered', 'retried', 'channel_fault', 'dead_letter']) {
      deliveries.inc({ channel, outcome }, 0)
    }
  }
  return {
    observer: { outcome: (channel, outcome) => deliveries.inc({ channel, outcome }) },
    async scrape() {
      const [reports, held] = await Promise.all([
        channelReports(store, channels, alertAfterMs),
        store.heldCount(),
      ])
      latest = { reports, held }
      return { contentType: registry.contentType, text: await registry.metrics() }
    },
  }
}

/** Serves `/metrics` on host:port only; resolves once it listens. */
export async function listenForMetrics(
  metrics: DeliveryMetrics,
  { host, port }: { host: string; port: number },
): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found')
      return
    }
    metrics.scrape().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () =>
        response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Unavailable'),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return server
}
