// `npm start` runs this: the production server, configured by the environment variables that
// server/config.ts describes (docs/production.md). It refuses to start on a wrong setting, a
// missing build, or a DATA_DIR it cannot write or that another server holds: one line says why.
import { fileURLToPath } from 'node:url'
import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, readConfig, type ServerConfig } from './config.js'
import { DataDirError, lockDataDir, type DataDirLock } from './data-dir.js'
import { SEND_FORM_PATH, SEND_PATH } from './email-stand-in.js'
import { OUTBOX_FILE } from './outbox.js'
import { SiteBuildError } from './site-build.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/** The errors an operator causes and can mend: one line, exit 1, no stack trace. */
const isOperatorError = (error: unknown): error is Error =>
  error instanceof ConfigError || error instanceof SiteBuildError || error instanceof DataDirError

/**
 * Stops on SIGTERM or SIGINT (and on a crash): no new connections, the requests in flight
 * finish within SHUTDOWN_GRACE_MS (0: they are cut off at once), then the outbox and the lock
 * on DATA_DIR are let go. A second signal exits at once.
 */
function stopGracefully(app: FastifyInstance, config: ServerConfig, lock: DataDirLock | null) {
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
        await lock?.release()
      }
    },
  )
}

async function main(): Promise<void> {
  const config = readConfig(process.env, repoRoot)
  const app = buildApp({
    distDir: config.distDir,
    dataDir: config.dataDir,
    logger: { level: config.logLevel },
    limits: config,
    trustProxy: config.trustProxy,
  })
  const local = app.site.outboxFile !== null
  // Only local mode writes to DATA_DIR; a build for the e-mail service never touches it.
  const lock = local
    ? await lockDataDir(config.dataDir, {
        files: [OUTBOX_FILE],
        // Another process may be writing the outbox now: stop writing at once, and exit 1 so
        // that a supervisor starts a server that takes the lock properly.
        onLost: (error) => {
          app.log.fatal({ err: error }, `lost the lock on DATA_DIR (${error.message}): stopping`)
          void app.close().finally(() => process.exit(1))
        },
      })
    : null
  stopGracefully(app, config, lock)

  const address = await app.listen({ port: config.port, host: config.host })
  const url = new URL(address)
  console.log(`Listening on ${url.origin}/`)
  if (local) {
    console.log(
      `LOCAL mode: no e-mail service key in this build; ${url.origin}${SEND_PATH} and ` +
        `${SEND_FORM_PATH} stand in for the sending API`,
    )
    console.log(
      `Demo requests are stored in ${app.site.outboxFile} (list them: npm run outbox); ` +
        `this server holds ${config.dataDir} until it stops`,
    )
  }
}

main().catch((error: unknown) => {
  console.error(isOperatorError(error) ? error.message : error)
  process.exit(1)
})
