// The demo-request service (demo-requests/demo-requests.ts) as `npm start` runs it: its store,
// SQLite in DATA_DIR (held by this one server) or PostgreSQL, the delivery worker for the
// configured channels, the import of an older outbox.jsonl, the retention job. `npm start`
// (main.ts), `npm run dev` and the browser suites' server all take it from here, so a request
// made on a laptop or in a test goes the way a visitor's goes in production.
import type { FastifyBaseLogger } from 'fastify'
import type { ServerConfig } from './settings/index.js'
import { lockDataDir, type DataDirLock } from './store/index.js'
import { DeliveryWorker, deliveryChannels } from './delivery/index.js'
import { LARGEST_RECORD_BYTES } from './intake/index.js'
import { SQLITE_FILE, openLeadStore, type LeadStore } from './store/index.js'
import type { StoreOptions } from './store/index.js'
import { deliveryMetrics, type DeliveryMetrics } from './metrics.js'
import { importDataDirOutboxAtStart } from './store/index.js'
import { RetentionJob } from './privacy/index.js'
import { DemoRequests } from './demo-requests/index.js'
import { Bookings } from './booking/index.js'
import { CalendarReader, type CalendarHealth } from './calendar/index.js'
import { phoneRegions } from './settings/index.js'
import type { Watched } from './store/index.js'

/** What a test may change in the store: its one fault seam. */
export type StoreSeams = Pick<StoreOptions, 'onSqliteOpen'>

export interface LeadService {
  /** What the app stores and delivers each request through (buildApp's demoRequests). */
  demoRequests: DemoRequests
  /** Prometheus' figures, when METRICS_PORT is set. */
  metrics: DeliveryMetrics | null
  /** Whether this process holds DATA_DIR (SQLite): said at start. */
  holdsDataDir: boolean
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
  const { alertAfterMs } = config.delivery
  // The reps of the team file who have a calendar: read in the background for the booking.
  const calendars = (config.team?.reps ?? []).flatMap((rep) =>
    rep.calendar === null
      ? []
      : [{ rep: rep.email, address: rep.calendar, timeZone: rep.timeZone }],
  )
  const watch: Watched[] = calendars.length > 0 ? ['calendar'] : []
  const metrics =
    config.metricsPort !== undefined
      ? deliveryMetrics(store, [...channels, ...watch], alertAfterMs)
      : null
  const worker =
    channels.length > 0
      ? new DeliveryWorker(store, config.delivery, {
          multiServer: store.kind === 'postgres',
          alertAfterMs,
          watch,
          ...(metrics !== null && { observer: metrics.observer }),
        })
      : null
  let retention: RetentionJob | null = null

  // A calendar that cannot be read is told as a channel's fault: through the worker, which
  // sends the notices, or, with no channel to carry them, to the store alone.
  const health: CalendarHealth =
    worker !== null
      ? {
          fault: (reason, startedAt) => worker.watchedFault('calendar', reason, startedAt),
          works: () => worker.watchedWorks('calendar'),
        }
      : {
          fault: async (reason, startedAt) => {
            await store.channels.recordFault('calendar', reason, startedAt, () => 60_000)
          },
          works: async () => {
            await store.channels.recordWorks('calendar', true)
          },
        }
  const team = config.team
  const bookings =
    team !== null && calendars.length > 0
      ? new Bookings(store, team, new CalendarReader(calendars, { health }), {
          carriers: {
            mail: config.delivery.email !== undefined,
            webhook: config.delivery.webhook !== undefined,
          },
          regions:
            config.delivery.phoneRegions ??
            phoneRegions(team.reps.flatMap((rep) => rep.countries.filter((code) => code !== '*'))),
        })
      : null

  const demoRequests = DemoRequests.delivering(store, config.delivery, worker, bookings)

  return {
    demoRequests,
    metrics,
    holdsDataDir: lock !== null,

    async begin(log) {
      const mode = lock?.openToOthers ?? null
      if (mode !== null) {
        const shown = `0${mode.toString(8)}`
        log.warn(
          { event: 'data-dir-not-private', dataDir: config.dataDir, mode: shown },
          `DATA_DIR ${config.dataDir} may be read by other users of this machine (mode ${shown}); ` +
            `it holds personal data: chmod 700 ${config.dataDir}`,
        )
      }
      await importDataDirOutboxAtStart(store, config.dataDir, log)
      // After the import, whose oldest requests may already be past the retention period.
      if (config.retentionDays > 0) {
        retention = new RetentionJob(store, { days: config.retentionDays })
        await retention.start(log)
      }
      await demoRequests.start(log)
    },

    async stop() {
      try {
        // A run under way ends, and a send in progress finishes (or is cut), before the store
        // closes.
        await retention?.stop()
        await demoRequests.stop()
      } finally {
        await lock?.release()
      }
    },
  }
}
