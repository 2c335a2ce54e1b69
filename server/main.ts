// `npm start` runs this: the production server on 127.0.0.1:$PORT.
//   PORT (3000), HOST (127.0.0.1), DIST_DIR (<repo>/dist), DATA_DIR (<repo>/.data),
//   GASPRE_TEST_HOOKS=1 enables the /__test__/ routes, LOG_LEVEL (info),
//   SHUTDOWN_GRACE_MS (25000): how long SIGTERM waits for in-flight requests,
//   DEMO_RATE_LIMIT_PER_MINUTE (10), MAX_CONNECTIONS (1024), OUTBOX_MAX_BYTES (1 GiB): limits,
//   TRUST_PROXY (unset): the reverse proxy's address(es) or CIDR(s), comma-separated, whose
//   X-Forwarded-For names the client (the rate limit counts per client address).
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { SEND_FORM_PATH, SEND_PATH } from './email-stand-in.js'
import { LimitsError, readLimits } from './limits.js'
import { SiteBuildError } from './site-build.js'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

function envPort(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${name} must be a port number (0-65535), not "${raw}"`)
    process.exit(1)
  }
  return value
}

/** Fastify's trustProxy from TRUST_PROXY: the proxies' addresses or CIDRs, comma-separated. */
function trustProxy(raw: string | undefined): string | false {
  const value = raw?.trim() ?? ''
  return value === '' ? false : value
}

async function main(): Promise<void> {
  const distDir = resolve(process.env.DIST_DIR ?? resolve(repoRoot, 'dist'))
  const dataDir = resolve(process.env.DATA_DIR ?? resolve(repoRoot, '.data'))
  const port = envPort('PORT', 3000)
  const host = process.env.HOST ?? '127.0.0.1'
  const graceMs = envPort('SHUTDOWN_GRACE_MS', 25_000)

  const testHooks = process.env.GASPRE_TEST_HOOKS === '1'
  let app: FastifyInstance
  try {
    app = buildApp({
      distDir,
      dataDir,
      testHooks,
      logger: { level: process.env.LOG_LEVEL ?? 'info' },
      limits: readLimits(process.env),
      trustProxy: trustProxy(process.env.TRUST_PROXY),
    })
  } catch (error) {
    if (error instanceof SiteBuildError || error instanceof LimitsError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl-C means "now".
      console.error(`${signal} again: exiting without waiting`)
      process.exit(1)
    }
    stopping = true
    app.log.info({ signal }, 'stopping: no new connections, finishing in-flight requests')
    const force = setTimeout(() => {
      app.log.error({ graceMs }, 'in-flight requests did not finish in time: exiting')
      process.exit(1)
    }, graceMs)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while stopping')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  // When started with an IPC channel (npm run bench:server), report memory on request: the
  // benchmark measures the server's own heap, not its own process's.
  if (process.send !== undefined) {
    process.on('message', (message) => {
      if (message === 'memory') process.send?.({ memory: process.memoryUsage() })
    })
    process.channel?.unref()
  }

  const address = await app.listen({ port, host })
  const url = new URL(address)
  console.log(`Listening on ${url.origin}/`)
  if (app.site.outboxFile !== null) {
    console.log(
      `LOCAL mode: no e-mail service key in this build; ${url.origin}${SEND_PATH} and ` +
        `${SEND_FORM_PATH} stand in for the sending API`,
    )
    console.log(`Demo requests are stored in ${app.site.outboxFile} (list them: npm run outbox)`)
  }
  if (testHooks) console.log('TEST HOOKS ON (GASPRE_TEST_HOOKS=1): /__test__/ routes are served')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
