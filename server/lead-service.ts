// The demo requests' store and the worker that delivers them, as `npm start` runs them: SQLite
// in DATA_DIR (held by this one server) or PostgreSQL, the delivery worker for the configured
// channels, the import of an older outbox.jsonl, the retention job. `npm start` (main.ts),
// `npm run dev` and the browser suites' server all take them from here, so a request made on a
// laptop or in a test goes the way a visitor's goes in production.
import type { FastifyBaseLogger } from 'fastify'
import type { AppOptions } from './app.js'
import type { ServerConfig } from './settings/index.js'
import { lockDataDir, type DataDirLock } from './store/index.js'
import { DeliveryWorker, deliveryChannels } from './delivery/index.js'
import { deliveryHealth } from './queue/index.js'
import { LARGEST_RECORD_BYTES } from './intake/index.js'
import { SQLITE_FILE, openLeadStore, type Channel, type LeadStore } from './store/index.js'
import type { StoreOptions } from './store/index.js'
import { deliveryMetrics, type DeliveryMetrics } from './metrics.js'
import { importDataDirOutboxAtStart } from './store/index.js'
import { RetentionJob } from './privacy/index.js'
import { assignRep } from './channels/whatsapp/index.js'

/** What a test may change in the store: its one fault seam. */
export type StoreSeams = Pick<StoreOptions, 'onSqliteOpen'>

export interface LeadService {
  store: LeadStore
  channels: readonly Channel[]
  worker: DeliveryWorker | null
  /** Prometheus' figures, when METRICS_PORT is set. */
  metrics: DeliveryMetrics | null
  /** Whether this process holds DATA_DIR (SQLite): said at start. */
  holdsDataDir: boolean
  /** What buildApp (or the dev server's intake) takes to store and deliver each request. */
  appOptions: Pick<
    AppOptions,
    | 'store'
    | 'deliveryChannels'
    | 'onStored'
    | 'onFloodEpisode'
    | 'deliveryHealth'
    | 'alsoStore'
    | 'whatsappWebhook'
  >
  /** Imports an older outbox.jsonl, starts the retention job and the worker. */
  begin(log: FastifyBaseLogger): Promise<void>
  /** Stops the worker (a send in progress finishes or is cut), closes the store, lets DATA_DIR go. */
  stop(): Promise<void>
}

/**
 * Opens the store (holding DATA_DIR first for SQLite: one server per folder) and makes the
 * worker. `onLockLost` is told when another process may be writing the store now.
 */
export async function openLeadService(
  config: ServerConfig,
  onLockLost: (error: Error) => void,
  seams: StoreSeams = {},
): Promise<LeadService> {
  const sqlite = config.databaseUrl === undefined
  let lock: DataDirLock | null = null
  if (sqlite) lock = await lockDataDir(config.dataDir, { files: [SQLITE_FILE], onLost: onLockLost })
  let store: LeadStore
  try {
    store = await openLeadStore(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
      { maxBytes: config.outboxMaxBytes, largestRecordBytes: LARGEST_RECORD_BYTES, ...seams },
    )
  } catch (error) {
    await lock?.release()
    throw error
  }
  const channels = deliveryChannels(config.delivery)
  const { alertAfterMs, whatsapp } = config.delivery
  const metrics =
    config.metricsPort !== undefined ? deliveryMetrics(store, channels, alertAfterMs) : null
  const worker =
    channels.length > 0
      ? new DeliveryWorker(store, config.delivery, {
          multiServer: store.kind === 'postgres',
          alertAfterMs,
          ...(metrics !== null && { observer: metrics.observer }),
        })
      : null
  let retention: RetentionJob | null = null

  return {
    store,
    channels,
    worker,
    metrics,
    holdsDataDir: lock !== null,
    appOptions: {
      store,
      deliveryChannels: channels,
      deliveryHealth: () => deliveryHealth(store, channels, alertAfterMs),
      ...(worker !== null && {
        onStored: () => worker.kick(),
        onFloodEpisode: (episode) => void worker.floodEpisode(episode),
      }),
      ...(whatsapp !== undefined &&
        worker?.whatsapp != null && {
          alsoStore: assignRep(whatsapp.routes, config.delivery.phoneRegions ?? ['MX']),
          whatsappWebhook: {
            verifyToken: whatsapp.verifyToken,
            appSecret: whatsapp.appSecret,
            receive: (statuses) => worker.whatsapp!.receiveStatuses(statuses),
          },
        }),
    },

    async begin(log) {
      await importDataDirOutboxAtStart(store, config.dataDir, log)
      // After the import, whose oldest requests may already be past the retention period.
      if (config.retentionDays > 0) {
        retention = new RetentionJob(store, { days: config.retentionDays })
        await retention.start(log)
      }
      // One server per SQLite file: what a killed predecessor held is free at once.
      if (store.kind === 'sqlite') await store.releaseHeld()
      worker?.start(log)
    },

    async stop() {
      try {
        // A run under way ends, and a send in progress finishes (or is cut), before the store
        // closes.
        await retention?.stop()
        await worker?.stop()
        await store.close()
      } finally {
        await lock?.release()
      }
    },
  }
}
