// Every environment variable the production server reads, in one schema: its name, what it
// means, its default and the values it takes. The server (server/main.ts) reads process.env
// through this schema only, once, at start; a wrong value stops the start with one line naming
// the variable and the values it accepts. The run-time table of docs/production.md is checked
// against this schema by server/config.test.ts.
// Not through it yet: the outbox command reads DATA_DIR itself (server/outbox-cli.ts: a blank
// or relative value resolves against the working directory, where the server takes the default
// or resolves against the repository), and scripts/start.mjs, dev.mjs and cms.mjs read
// DIST_DIR, PORT, HOST, DATA_DIR and CMS_PROXY_PORT themselves.
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { z } from 'zod'
import { SettingError, setting, settingsReader } from '../src/config/settings.js'

const wholeNumber = (min: number, max: number) =>
  z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max))

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])
const isProxyEntry = (entry: string): boolean => {
  const [address = '', bits, ...rest] = entry.split('/')
  if (rest.length > 0) return false
  if (PROXY_NAMES.has(address) && bits === undefined) return true
  const family = isIP(address)
  if (family === 0) return false
  if (bits === undefined) return true
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/** @internal its tests use it too */
export const SETTINGS = {
  PORT: setting({
    description: 'The port to listen on (`0`: any free port).',
    default: '3000',
    expected: 'a port number from 0 to 65535',
    schema: wholeNumber(0, 65_535),
  }),
  HOST: setting({
    description:
      'The address to listen on. Behind a proxy on the same machine keep `127.0.0.1`; `0.0.0.0` or `::` listens on every interface.',
    default: '127.0.0.1',
    expected: 'an IP address or a host name',
    schema: z.string().regex(/^[\w.:-]+$/),
  }),
  DIST_DIR: setting({
    description: 'The build to serve.',
    default: 'dist',
    expected: 'a folder path',
    schema: z.string().min(1),
  }),
  DATA_DIR: setting({
    description:
      'Where local mode keeps `outbox.jsonl`. One server at a time: a second one on the same folder refuses to start.',
    default: '.data',
    expected: 'a folder path',
    schema: z.string().min(1),
  }),
  LOG_LEVEL: setting({
    description: 'The level of the one-line JSON logs.',
    default: 'info',
    expected: 'one of fatal, error, warn, info, debug, trace, silent',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  }),
  SHUTDOWN_GRACE_MS: setting({
    description:
      'How long `SIGTERM` waits for requests in flight before it exits anyway; `0` does not wait.',
    default: '25000',
    expected: 'a whole number of milliseconds from 0 to 600000',
    schema: wholeNumber(0, 600_000),
  }),
  DEMO_RATE_LIMIT_PER_MINUTE: setting({
    description:
      'Demo requests accepted per client per minute, over both sending endpoints; more get `429`. An IPv6 client is its /56.',
    default: '10',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  DEMO_TOTAL_LIMIT_PER_MINUTE: setting({
    description:
      'Demo requests stored per minute from all clients together, a ceiling far above real traffic; more get `429` with a sentence that offers WhatsApp and e-mail instead, and the log says once that it was reached.',
    default: '60',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  MAX_CONNECTIONS: setting({
    description:
      'Open connections the server holds in all. A newcomer past it closes the oldest idle connection of the client holding the most; only when every one is busy is it refused.',
    default: '1024',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  MAX_CONNECTIONS_PER_CLIENT: setting({
    description:
      'Open connections one client may hold (a browser uses up to 6); more are closed at once. A trusted proxy is not counted.',
    default: '64',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  OUTBOX_MAX_BYTES: setting({
    description:
      'The largest `outbox.jsonl` may grow; a request that would not fit gets `507`, and `/readyz` fails as soon as the largest request would not.',
    default: '1073741824',
    expected: 'a whole number of bytes from 1 to 1099511627776',
    schema: wholeNumber(1, 1024 ** 4),
  }),
  TRUST_PROXY: setting({
    description:
      'Which peers are reverse proxies whose `X-Forwarded-For` names the client: their addresses or CIDRs, comma-separated (`127.0.0.1` for nginx on the same machine), or the number of proxies in front of the server. Unset, every visitor behind a proxy shares one budget. See [Behind a proxy](#behind-a-proxy).',
    default: undefined,
    expected: 'addresses or CIDRs separated by commas, or a whole number of proxies',
    schema: z.union([
      wholeNumber(1, 100),
      z
        .string()
        .transform((text) => text.split(',').map((entry) => entry.trim()))
        .pipe(z.array(z.string().refine(isProxyEntry)).min(1)),
    ]),
  }),
} as const

type Value<N extends keyof typeof SETTINGS> = z.output<(typeof SETTINGS)[N]['schema']>

/** A wrong setting: the operator's to mend; main.ts prints its one line and exits 1. */
export { SettingError as ConfigError }

export interface ServerConfig {
  port: number
  host: string
  distDir: string
  dataDir: string
  logLevel: Value<'LOG_LEVEL'>
  shutdownGraceMs: number
  rateLimitPerMinute: number
  totalLimitPerMinute: number
  maxConnections: number
  maxConnectionsPerClient: number
  outboxMaxBytes: number
  /** Fastify's trustProxy: the proxies' addresses, or how many there are; false for none. */
  trustProxy: string[] | number | false
}

/** The server's configuration from the environment; relative paths resolve against `root`. */
export function readConfig(env: NodeJS.ProcessEnv, root: string): ServerConfig {
  const { read, required } = settingsReader(SETTINGS, env)
  return {
    port: required('PORT'),
    host: required('HOST'),
    distDir: resolve(root, required('DIST_DIR')),
    dataDir: resolve(root, required('DATA_DIR')),
    logLevel: required('LOG_LEVEL'),
    shutdownGraceMs: required('SHUTDOWN_GRACE_MS'),
    rateLimitPerMinute: required('DEMO_RATE_LIMIT_PER_MINUTE'),
    totalLimitPerMinute: required('DEMO_TOTAL_LIMIT_PER_MINUTE'),
    maxConnections: required('MAX_CONNECTIONS'),
    maxConnectionsPerClient: required('MAX_CONNECTIONS_PER_CLIENT'),
    outboxMaxBytes: required('OUTBOX_MAX_BYTES'),
    trustProxy: read('TRUST_PROXY') ?? false,
  }
}
