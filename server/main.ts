// `npm start` runs this: the production server, configured by the environment variables that
// server/config.ts describes (docs/production.md). It refuses to start on a wrong setting, a
// missing build, or a DATA_DIR it cannot write or that another server holds: one line says why.
import { fileURLToPath } from 'node:url'
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, readConfig, type ServerConfig } from './config.js'
import { DataDirError, lockDataDir, type DataDirLock } from './data-dir.js'
import { DeliveryWorker, deliveryChannels } from './delivery.js'
import { deliveryHealth } from './delivery-health.js'
import { deliveryMetrics, listenForMetrics } from './metrics.js'
import { LARGEST_RECORD_BYTES } from './demo-request-check.js'
import { SEND_FORM_PATH, SEND_PATH } from './email-stand-in.js'
import { SQLITE_FILE, StoreError, openLeadStore, type LeadStore } from './lead-store.js'
import { importDataDirOutbox } from './outbox-import.js'
import { RetentionJob } from './retention.js'
import { assignRep } from './whatsapp-store.js'
import { SiteBuildError, readSiteBuild } from './site-build.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** The errors an operator causes and can mend: one line, exit 1, no stack trace. */
const isOperatorError = (error: unknown): error is Error =>
  error instanceof ConfigError ||
  error instanceof SiteBuildError ||
  error instanceof DataDirError ||
  error instanceof StoreError

/**
 * Stops on SIGTERM or SIGINT (and on a crash): no new connections, the requests in flight
 * finish within SHUTDOWN_GRACE_MS (0: they are cut off at once), then the outbox and the lock
 * on DATA_DIR are let go. A second signal exits at once.
 */
function stopGracefully(
  app: FastifyInstance,
  config: ServerConfig,
  lock: DataDirLock | null,
  store: LeadStore | null,
  worker: DeliveryWorker | null,
) {
  const { shutdownGraceMs } = config
  return closeWithGrace(
    {
      // With no grace the connections are cut below, so closing takes no time to wait for.
      ...(shutdownGraceMs > 0 && { delay: shutdownGraceMs }),
      logger: { error: (message: unknown) => app.log.error(message) },
      onTimeout: (delay) =>
        app.log.error({ graceMs: delay }, 'in-flight requests did not finish in time: exiting'),
    },
    async ({ signal, err }) => {
      if (err !== undefined) app.log.error({ err }, 'stopping after an unexpected error')
      else app.log.info({ signal }, 'stopping: no new connections, finishing in-flight requests')
      if (shutdownGraceMs === 0) app.server.closeAllConnections()
      try {
        await app.close()
        // A send in progress finishes (or is cut) before the store closes.
        await worker?.stop()
        await store?.close()
      } finally {
        await lock?.release()
      }
    },
  )
}

/** The channels for the start's line; the webhook by its origin alone (its path may be a key). */
const describeChannels = ({ delivery }: ServerConfig): string =>
  [
    delivery.email && `e-mail to ${delivery.email.to.join(', ')}`,
    delivery.webhook && `webhook to ${new URL(delivery.webhook.url).origin}`,
    delivery.whatsapp &&
      `WhatsApp to the reps of LEADS_WHATSAPP_ROUTES (status webhook at /api/whatsapp/webhook)`,
  ]
    .filter((each): each is string => typeof each === 'string')
    .reduce(
      (said, each, index, all) =>
        index === 0 ? each : `${said}${index === all.length - 1 ? ' and ' : ', '}${each}`,
      '',
    )

async function main(): Promise<void> {
  const config = readConfig(process.env, repoRoot)
  // Only local mode stores requests; a build for the e-mail service never touches DATA_DIR.
  const local = readSiteBuild(config.distDir).mode === 'local'
  const sqlite = local && config.databaseUrl === undefined
  let app: FastifyInstance | null = null
  // One server per DATA_DIR for SQLite; PostgreSQL is shared by as many servers as it takes.
  const lock = sqlite
    ? await lockDataDir(config.dataDir, {
        files: [SQLITE_FILE],
        // Another process may be writing the store now: stop writing at once, and exit 1 so
        // that a supervisor starts a server that takes the lock properly.
        onLost: (error) => {
          console.error(`lost the lock on DATA_DIR (${error.message}): stopping`)
          void (app?.close() ?? Promise.resolve()).finally(() => process.exit(1))
        },
      })
    : null
  let store: LeadStore | null = null
  try {
    store = local
      ? await openLeadStore(
          { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
          { maxBytes: config.outboxMaxBytes, largestRecordBytes: LARGEST_RECORD_BYTES },
        )
      : null
  } catch (error) {
    await lock?.release()
    throw error
  }
  const channels = deliveryChannels(config.delivery)
  const { alertAfterMs } = config.delivery
  const metrics =
    store !== null && config.metricsPort !== undefined
      ? deliveryMetrics(store, channels, alertAfterMs)
      : null
  const worker =
    store !== null && channels.length > 0
      ? new DeliveryWorker(store, config.delivery, {
          multiServer: store.kind === 'postgres',
          alertAfterMs,
          ...(metrics !== null && { observer: metrics.observer }),
        })
      : null
  app = buildApp({
    distDir: config.distDir,
    dataDir: config.dataDir,
    logger: { level: config.logLevel },
    limits: config,
    trustProxy: config.trustProxy,
    ...(store !== null && { store, deliveryChannels: channels }),
    ...(worker !== null && {
      onStored: () => worker.kick(),
      onFloodEpisode: (episode) => void worker.floodEpisode(episode),
    }),
    ...(store !== null && {
      deliveryHealth: () => deliveryHealth(store, channels, alertAfterMs),
    }),
    ...(store !== null &&
      config.delivery.whatsapp !== undefined &&
      worker?.whatsapp != null && {
        alsoStore: assignRep(
          config.delivery.whatsapp.routes,
          config.delivery.phoneRegions ?? ['MX'],
        ),
        whatsappWebhook: {
          verifyToken: config.delivery.whatsapp.verifyToken,
          appSecret: config.delivery.whatsapp.appSecret,
          receive: (statuses) => worker.whatsapp!.receiveStatuses(statuses),
        },
      }),
  })
  // Its own listener on 127.0.0.1, never the public port; a port taken stops the start.
  const metricsServer =
    metrics !== null && config.metricsPort !== undefined
      ? await listenForMetrics(metrics, config.metricsPort).catch((error: unknown) => {
          throw new ConfigError(
            `METRICS_PORT ${config.metricsPort} cannot be listened on: ${error instanceof Error ? error.message : String(error)}`,
          )
        })
      : null
  app.addHook('onClose', async () => {
    await new Promise<void>((done) => (metricsServer ? metricsServer.close(() => done()) : done()))
  })
  stopGracefully(app, config, lock, store, worker)

  if (store !== null) {
    // A file that cannot be imported is told, and the server serves anyway: it is kept as it
    // was, and `npm run outbox -- --import` can take it later.
    try {
      const imported = await importDataDirOutbox(store, config.dataDir)
      if (imported !== null) {
        app.log.info(
          { event: 'outbox-imported', ...imported },
          `imported ${imported.imported} of ${imported.read} requests from ` +
            `${config.dataDir}/outbox.jsonl into ${store.location} (the file is kept as it was)`,
        )
      }
    } catch (error) {
      app.log.error(
        { event: 'outbox-import-failed', err: error },
        `could not import ${config.dataDir}/outbox.jsonl: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
  // After the import, whose oldest requests may already be past the retention period.
  if (store !== null && config.retentionDays > 0) {
    const retention = new RetentionJob(store, {
      days: config.retentionDays,
      dataDir: config.dataDir,
    })
    // Stopped with the app, so a run under way ends before the store closes.
    app.addHook('onClose', () => retention.stop())
    await retention.start(app.log)
  }
  // One server per SQLite file: what a killed predecessor held is free at once.
  if (store?.kind === 'sqlite') await store.releaseHeld()
  worker?.start(app.log)

  const address = await app.listen({ port: config.port, host: config.host })
  const url = new URL(address)
  console.log(`Listening on ${url.origin}/`)
  if (metricsServer !== null) {
    console.log(`Metrics for Prometheus on http://127.0.0.1:${config.metricsPort}/metrics`)
  }
  if (store !== null) {
    console.log(
      `LOCAL mode: no e-mail service key in this build; ${url.origin}${SEND_PATH} and ` +
        `${SEND_FORM_PATH} stand in for the sending API`,
    )
    console.log(
      `Demo requests are stored in ${store.location} (list them: npm run outbox)` +
        (lock !== null ? `; this server holds ${config.dataDir} until it stops` : ''),
    )
    console.log(
      config.retentionDays > 0
        ? `Requests older than ${config.retentionDays} days are erased, at start and once a day ` +
            '(LEADS_RETENTION_DAYS)'
        : 'LEADS_RETENTION_DAYS=0: demo requests are kept forever; none is erased for its age',
    )
    console.log(
      channels.length > 0
        ? `Each request is delivered by ${describeChannels(config)}`
        : 'No delivery configured: requests are only stored. Set SMTP_URL, LEADS_MAIL_TO and ' +
            'LEADS_MAIL_FROM to e-mail them, or LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET to ' +
            'post them (docs/production.md, Delivery to the sales team)',
    )
  }
}

main().catch((error: unknown) => {
  console.error(isOperatorError(error) ? error.message : error)
  process.exit(1)
})
