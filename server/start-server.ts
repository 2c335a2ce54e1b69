// The production server's start, as `npm start` runs it (main.ts): configured by the environment
// variables that server/settings/config.ts describes (docs/production.md). It refuses to start on a wrong
// setting, a missing build, or a DATA_DIR it cannot write or that another server holds.
import { fileURLToPath } from 'node:url'
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, readConfig, type ServerConfig } from './settings/index.js'
import { DataDirError } from './store/index.js'
import { SEND_FORM_PATH, SEND_PATH } from './intake/index.js'
import { StoreError } from './store/index.js'
import { openLeadService, type LeadService, type StoreSeams } from './lead-service.js'
import { listenForMetrics } from './metrics.js'
import { SiteBuildError, readSiteBuild } from './http/index.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** The errors an operator causes and can mend: one line, exit 1, no stack trace. */
export const isOperatorError = (error: unknown): error is Error =>
  error instanceof ConfigError ||
  error instanceof SiteBuildError ||
  error instanceof DataDirError ||
  error instanceof StoreError

/**
 * Stops on SIGTERM or SIGINT (and on a crash): no new connections, the requests in flight
 * finish within SHUTDOWN_GRACE_MS (0: they are cut off at once), then the worker, the store and
 * the lock on DATA_DIR are let go. A second signal exits at once.
 */
function stopGracefully(app: FastifyInstance, config: ServerConfig, leads: LeadService | null) {
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
      } finally {
        await leads?.stop()
      }
    },
  )
}

/**
 * A port the server cannot listen on, in one line that names the variable, as a wrong setting
 * is told (the other program, the user, or an address that is not this machine's).
 */
function cannotListen(
  portName: string,
  port: number,
  hostName: string,
  host: string,
  error: unknown,
): ConfigError {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const why =
    code === 'EADDRINUSE'
      ? `another program listens on ${host}:${port}; stop it, or choose another ${portName}`
      : code === 'EACCES'
        ? `this user (uid ${process.getuid?.() ?? '?'}) may not listen on port ${port}; choose one above 1023, or let a proxy listen on it`
        : code === 'EADDRNOTAVAIL'
          ? `${hostName} ${host} is no address of this machine`
          : error instanceof Error
            ? error.message
            : String(error)
  return new ConfigError(`${portName} ${port} cannot be listened on: ${why}`)
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

/**
 * Starts the server as `npm start` does. The browser suites' server (testing/server-with-full-disk.mjs)
 * starts it too, with the store's one fault seam.
 */
export async function startServer(seams: StoreSeams = {}): Promise<void> {
  const config = readConfig(process.env, repoRoot)
  // Only own-server mode stores requests; a build for the e-mail service never touches DATA_DIR.
  const local = readSiteBuild(config.distDir).mode === 'own-server'
  let app: FastifyInstance | null = null
  const leads = local
    ? await openLeadService(
        config,
        // Another process may be writing the store now: stop writing at once, and exit 1 so
        // that a supervisor starts a server that takes the lock properly.
        (error) => {
          console.error(`lost the lock on DATA_DIR (${error.message}): stopping`)
          void (app?.close() ?? Promise.resolve()).finally(() => process.exit(1))
        },
        seams,
      )
    : null
  const channels = leads?.demoRequests.channels ?? []
  app = buildApp({
    distDir: config.distDir,
    logger: { level: config.logLevel },
    limits: config,
    trustProxy: config.trustProxy,
    ...(leads !== null && { demoRequests: leads.demoRequests }),
  })
  // Its own listener (METRICS_HOST, 127.0.0.1 unless told), never the public port; a port
  // taken stops the start.
  const metrics = leads?.metrics ?? null
  const metricsPort = config.metricsPort
  const metricsServer =
    metrics !== null && metricsPort !== undefined
      ? await listenForMetrics(metrics, { host: config.metricsHost, port: metricsPort }).catch(
          (error: unknown) => {
            throw cannotListen(
              'METRICS_PORT',
              metricsPort,
              'METRICS_HOST',
              config.metricsHost,
              error,
            )
          },
        )
      : null
  app.addHook('onClose', async () => {
    await new Promise<void>((done) => (metricsServer ? metricsServer.close(() => done()) : done()))
  })
  stopGracefully(app, config, leads)
  await leads?.begin(app.log)
  const store = leads?.demoRequests ?? null

  const address = await app
    .listen({ port: config.port, host: config.host })
    .catch((error: unknown) => {
      throw cannotListen('PORT', config.port, 'HOST', config.host, error)
    })
  const url = new URL(address)
  console.log(`Listening on ${url.origin}/`)
  if (metricsServer !== null) {
    const host = config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost
    console.log(`Metrics for Prometheus on http://${host}:${metricsPort}/metrics`)
  }
  if (store !== null) {
    console.log(
      `Own-server mode (no e-mail service key in this build): ${url.origin}${SEND_PATH} and ` +
        `${SEND_FORM_PATH} take the demo requests`,
    )
    console.log(
      `Demo requests are stored in ${store.location} (list them: npm run outbox)` +
        (leads?.holdsDataDir ? `; this server holds ${config.dataDir} until it stops` : ''),
    )
    console.log(
      config.retentionDays > 0
        ? `Requests older than ${config.retentionDays} days are erased, at start and once a day ` +
            '(LEADS_RETENTION_DAYS)'
        : 'LEADS_RETENTION_DAYS=0: demo requests are kept forever; none is erased for its age',
    )
    const calendars = config.team?.reps.filter((rep) => rep.calendar !== null).length ?? 0
    if (calendars > 0) {
      console.log(
        `Booking: the calendars of ${calendars} reps of LEADS_TEAM_FILE are read every 3 minutes; ` +
          'a request whose rep has one is answered with its booking address (/reserva/…)',
      )
    }
    console.log(
      channels.length > 0
        ? `Each request is delivered by ${describeChannels(config)}`
        : 'No delivery configured: requests are only stored. Set SMTP_URL, LEADS_MAIL_TO and ' +
            'LEADS_MAIL_FROM to e-mail them, or LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET to ' +
            'post them (docs/production.md, Delivery to the sales team)',
    )
  }
}
