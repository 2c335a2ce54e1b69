// Every environment variable the production server reads, in one schema: its name, what it
// means, its default and the values it takes. The server (server/main.ts) reads process.env
// through this schema only, once, at start; a wrong value stops the start with one line naming
// the variable and the values it accepts. The run-time table of docs/production.md is checked
// against this schema by server/settings/config.test.ts. The commands around the server read the same
// schema: `npm run outbox` (readConfig), `npm start` (DIST_DIR) and `npm run dev`/`npm run cms`
// (scripts/dev-settings.ts), so a variable means the same thing to each of them.
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { CountryCode } from 'libphonenumber-js/max'
import { SettingError, setting, settingsReader } from '../../src/config/env-settings.js'
import { phoneRegions } from './phone-number.js'
import { parseWhatsAppRoutes, routeCallingCodes, type WhatsAppRoutes } from './whatsapp-routes.js'
import { readTeamFile, teamWhatsAppRoutes, type Team } from './team-file.js'
import { isTimeZone, parseWorkingHours, type WorkingHours } from './working-hours.js'

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

/** The sales team's time zone unless LEADS_TIME_ZONE says otherwise. */
export const DEFAULT_TIME_ZONE = 'America/Mexico_City'

/** An address alone: what a mail server takes in RCPT TO (no display name). */
const MAIL_ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/
const mailAddressOf = (text: string): string => /<([^<>]*)>\s*$/.exec(text)?.[1] ?? text

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}
const isPostgresUrl = (text: string): boolean => {
  const url = parsedUrl(text)
  return url !== null && (url.protocol === 'postgres:' || url.protocol === 'postgresql:')
}
const isSmtpUrl = (text: string): boolean => {
  const url = parsedUrl(text)
  return (
    url !== null && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== ''
  )
}
const isHttpUrl = (text: string): boolean => {
  const url = parsedUrl(text)
  return (
    url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  )
}

/**
 * A Standard Webhooks signing secret: `whsec_` and the base64 of 24 to 64 bytes ("Random. At
 * least 24 bytes (192 bits, 512 maximum)", https://github.com/standard-webhooks/standard-webhooks
 * spec/standard-webhooks.md, Signature scheme). Base64 whose length is no multiple of four is
 * what the signing library cannot decode: it would stop the server with a stack trace.
 */
function isWebhookSecret(text: string): boolean {
  const encoded = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(text)?.[1]
  if (encoded === undefined || encoded.length % 4 !== 0) return false
  const bytes = Buffer.from(encoded, 'base64').length
  return bytes >= 24 && bytes <= 64
}

/** Also read by `npm run dev` (scripts/dev-settings.ts) for the variables it shares. */
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
      'Where own-server mode keeps its SQLite database of demo requests, `leads.sqlite` (unless `DATABASE_URL` is set). One server at a time: a second one on the same folder refuses to start. An `outbox.jsonl` found there is imported at start, then removed.',
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
      "Demo requests accepted per client per minute, over every sending endpoint (our door and the e-mail service's); more get `429`. An IPv6 client is its /56.",
    default: '10',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  DEMO_TOTAL_LIMIT_PER_MINUTE: setting({
    description:
      'Demo requests delivered per minute from all clients together, a ceiling far above real traffic; more are stored as held (the visitor is told they were sent), not delivered until someone releases them with `npm run outbox -- --release-held`, up to `DEMO_HELD_LIMIT`. The log says once per flood that it began.',
    default: '60',
    expected: 'a whole number from 1 to 1000000',
    schema: wholeNumber(1, 1_000_000),
  }),
  DEMO_HELD_LIMIT: setting({
    description:
      'Requests held past `DEMO_TOTAL_LIMIT_PER_MINUTE` at most, until they are released or erased (`npm run outbox -- --held`); past it a request gets `429` with a sentence that offers WhatsApp and e-mail instead. `0` holds none.',
    default: '1000',
    expected: 'a whole number from 0 to 1000000',
    schema: wholeNumber(0, 1_000_000),
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
      'The largest the store of demo requests may grow (the SQLite file, or the tables in PostgreSQL); a request that would not fit gets `507`, and `/readyz` fails as soon as the largest request would not.',
    default: '1073741824',
    expected: 'a whole number of bytes from 1 to 1099511627776',
    schema: wholeNumber(1, 1024 ** 4),
  }),
  DATABASE_URL: setting({
    description:
      'A PostgreSQL database to store the demo requests in (`postgres://user:password@host:5432/name`) instead of SQLite in `DATA_DIR`: for several servers behind one load balancer. Tables are made at start.',
    default: undefined,
    expected: 'a postgres:// or postgresql:// URL',
    schema: z.string().refine(isPostgresUrl),
  }),
  SMTP_URL: setting({
    description:
      'The mail server that sends each demo request to the sales team: `smtp://user:password@host:587` (STARTTLS) or `smtps://user:password@host:465`. Needs `LEADS_MAIL_TO` and `LEADS_MAIL_FROM`.',
    default: undefined,
    expected: 'an smtp:// or smtps:// URL with a host',
    schema: z.string().refine(isSmtpUrl),
  }),
  LEADS_MAIL_TO: setting({
    description: 'Who receives each demo request by mail: addresses, comma-separated.',
    default: undefined,
    expected: 'e-mail addresses separated by commas',
    schema: z
      .string()
      .transform((text) => text.split(',').map((entry) => entry.trim()))
      .pipe(z.array(z.string().regex(MAIL_ADDRESS)).min(1)),
  }),
  LEADS_MAIL_FROM: setting({
    description:
      'The sender of those mails, an address the mail server may send from: `ventas@example.com` or `GASPRE <ventas@example.com>`.',
    default: undefined,
    expected: 'an e-mail address, or a name and an address in <>',
    schema: z.string().refine((text) => MAIL_ADDRESS.test(mailAddressOf(text))),
  }),
  LEADS_WEBHOOK_URL: setting({
    description:
      'Where each demo request is also posted as signed JSON (Standard Webhooks), for a CRM, n8n, Zapier or Make. Needs `LEADS_WEBHOOK_SECRET`.',
    default: undefined,
    expected: 'an http:// or https:// URL',
    schema: z.string().refine(isHttpUrl),
  }),
  LEADS_WEBHOOK_SECRET: setting({
    description:
      "The webhook's signing secret, `whsec_` and base64, as the receiving service gives it.",
    default: undefined,
    expected: 'whsec_ followed by the base64 of 24 to 64 random bytes',
    schema: z.string().refine(isWebhookSecret),
    secret: true,
  }),
  LEADS_TIME_ZONE: setting({
    description:
      "The sales team's time zone: when a request arrived, in the mails and in `npm run outbox`.",
    default: DEFAULT_TIME_ZONE,
    expected: `an IANA time zone such as ${DEFAULT_TIME_ZONE}`,
    schema: z.string().refine(isTimeZone),
  }),
  LEADS_ALERT_AFTER_SECONDS: setting({
    description:
      'How long a delivery channel may fail, or its oldest waiting request wait, before `/healthz/delivery` answers `503` and the other channels carry a notice to the people who can mend it; a request one channel keeps failing while it delivers others is named in a notice after it too.',
    default: '600',
    expected: 'a whole number of seconds from 10 to 604800',
    schema: wholeNumber(10, 604_800),
  }),
  METRICS_PORT: setting({
    description:
      'A port that serves Prometheus metrics at `/metrics` on `METRICS_HOST` (deliveries, what waits, dead letters, held requests, the channels, the process). Never the public port: a value equal to `PORT` stops the start.',
    default: undefined,
    expected: 'a port number from 1 to 65535',
    schema: wholeNumber(1, 65_535),
  }),
  METRICS_HOST: setting({
    description:
      "The address the metrics listen on. Keep `127.0.0.1` when Prometheus (or its agent) runs on the same machine; in a container, the address Prometheus's network reaches (`0.0.0.0` for every interface), kept off the public network by the container's or the firewall's rules.",
    default: '127.0.0.1',
    expected: 'an IP address or a host name',
    schema: z.string().regex(/^[\w.:-]+$/),
  }),
  WHATSAPP_API_URL: setting({
    description:
      "The WhatsApp Cloud API's versioned base URL; each request's message is posted to `{WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages`. Another URL only for a provider's compatible endpoint, or a test.",
    default: 'https://graph.facebook.com/v23.0',
    expected: 'an http:// or https:// URL',
    schema: z
      .string()
      .refine(isHttpUrl)
      .transform((text) => text.replace(/\/+$/, '')),
  }),
  WHATSAPP_PHONE_NUMBER_ID: setting({
    description:
      "The id of the business phone number that sends the WhatsApp messages (Meta's App Dashboard, WhatsApp, API Setup), not the number itself. The WhatsApp channel needs it with `WHATSAPP_TOKEN`, `WHATSAPP_TEMPLATE`, `LEADS_WHATSAPP_ROUTES`, `WHATSAPP_VERIFY_TOKEN` and `WHATSAPP_APP_SECRET`.",
    default: undefined,
    expected: 'the digits of a phone number id',
    schema: z.string().regex(/^\d{5,30}$/),
  }),
  WHATSAPP_TOKEN: setting({
    description:
      "The bearer token the Cloud API takes: a system user's permanent access token with `whatsapp_business_messaging`.",
    default: undefined,
    expected: 'an access token, with no spaces',
    schema: z.string().regex(/^[\w.~+/=-]{10,2000}$/),
  }),
  WHATSAPP_TEMPLATE: setting({
    description:
      'The name of the approved message template (utility) that tells a rep of a new request; its text is in [The WhatsApp template](#the-whatsapp-template).',
    default: undefined,
    expected: 'a template name: lowercase letters, digits and _',
    schema: z.string().regex(/^[a-z0-9_]{1,512}$/),
  }),
  WHATSAPP_TEMPLATE_LANGUAGE: setting({
    description: "The template's language and locale, as it was approved.",
    default: 'es_MX',
    expected: 'a language code such as es_MX or es',
    schema: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/),
  }),
  LEADS_WHATSAPP_ROUTES: setting({
    description:
      "The sales reps' WhatsApp numbers by the country of the visitor's phone: `+52=+5215511111111,+5215522222222;+34=+34600111222;*=+5215533333333`. Each request goes to one rep of its country in turn, or to the default's (`*`, required); unread, to the next. See [Routes](#whatsapp-routes).",
    default: undefined,
    expected: 'routes such as +52=+5215511111111,+5215522222222;*=+5215533333333',
    schema: z.string().min(1),
  }),
  WHATSAPP_VERIFY_TOKEN: setting({
    description:
      "A string of your choosing that Meta's App Dashboard sends back when it registers the status webhook, `/api/whatsapp/webhook`.",
    default: undefined,
    expected: 'a string of at least 8 characters, with no spaces',
    schema: z.string().regex(/^\S{8,200}$/),
  }),
  WHATSAPP_APP_SECRET: setting({
    description:
      "The Meta app's secret (App Dashboard, App settings, Basic): the status webhook takes only posts it signed (`X-Hub-Signature-256`).",
    default: undefined,
    expected: 'the app secret, with no spaces',
    schema: z.string().regex(/^\S{16,200}$/),
  }),
  LEADS_TEAM_FILE: setting({
    description:
      "A YAML file that describes the sales team: each rep's name, e-mail, WhatsApp, countries, calendar, video room, hours and time zone. Replaces `LEADS_WHATSAPP_ROUTES`; a rep with a calendar is offered to the visitor as free times to book. See [The sales team file](#the-sales-team-file).",
    default: undefined,
    expected: 'the path of a YAML file',
    schema: z.string().min(1),
  }),
  LEADS_ESCALATE_AFTER_MINUTES: setting({
    description:
      'A WhatsApp message that its rep has not read after this many minutes of working hours goes to the next rep, and one mail to `LEADS_MAIL_TO` says so.',
    default: '15',
    expected: 'a whole number of minutes from 1 to 10080',
    schema: wholeNumber(1, 10_080),
  }),
  LEADS_WORKING_HOURS: setting({
    description:
      "The sales team's working hours, in `LEADS_TIME_ZONE`: days `lun mar mié jue vie sáb dom` as a range or a list, then `HH:MM-HH:MM`, several joined by `;`, e.g. `lun-vie 09:00-19:00; sáb 10:00-14:00`. The escalation clock runs only then; messages go at once at any hour.",
    default: 'lun-vie 09:00-19:00',
    expected: 'days and hours such as lun-vie 09:00-19:00; sáb 10:00-14:00',
    schema: z.string().transform((text, context) => {
      const hours = parseWorkingHours(text)
      if (hours === null) {
        context.addIssue({ code: 'custom', message: 'not working hours' })
        return z.NEVER
      }
      return hours
    }),
  }),
  LEADS_RETENTION_DAYS: setting({
    description:
      'Days a demo request is kept from its arrival. Older ones are erased with their deliveries at start and daily, except while a delivery is pending. `0` keeps them forever, and the start says so. The privacy notice states this period: change both.',
    default: '365',
    expected: 'a whole number of days from 0 to 36500',
    schema: wholeNumber(0, 36_500),
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
  /** Demo requests accepted per client per minute (the sending endpoints only). */
  rateLimitPerMinute: number
  /** Demo requests delivered per minute from all clients together; more are held. */
  totalLimitPerMinute: number
  /** Requests held past the total ceiling at most; more are refused. */
  heldLimit: number
  /** Open connections in all; a newcomer past it takes an idle one's place. */
  maxConnections: number
  /** Open connections one client may hold; a trusted proxy is not counted. */
  maxConnectionsPerClient: number
  /** The store refuses requests that would grow it past this many bytes. */
  outboxMaxBytes: number
  /** Fastify's trustProxy: the proxies' addresses, or how many there are; false for none. */
  trustProxy: string[] | number | false
  /** PostgreSQL instead of SQLite in dataDir. */
  databaseUrl: string | undefined
  /** Requests older than this many days are erased; 0 keeps them forever. */
  retentionDays: number
  delivery: DeliveryConfig
  /** Where Prometheus metrics are served; undefined: not at all. */
  metricsPort: number | undefined
  metricsHost: string
  /** The sales team of LEADS_TEAM_FILE; null without one. */
  team: Team | null
}

/** Where each stored request is delivered; a channel left out is not configured. */
export interface DeliveryConfig {
  email?: { smtpUrl: string; to: string[]; from: string }
  webhook?: { url: string; secret: string }
  whatsapp?: WhatsAppConfig
  /**
   * Where a phone number written without a country code is looked for: Mexico, then the
   * countries of the WhatsApp routes. ['MX'] when unset.
   */
  phoneRegions?: CountryCode[]
  timeZone: string
  /** How long a channel may fail before it is told (LEADS_ALERT_AFTER_SECONDS), in ms. */
  alertAfterMs: number
}

/** The WhatsApp channel: the Cloud API, the routes, the status webhook and the escalation. */
export interface WhatsAppConfig {
  apiUrl: string
  phoneNumberId: string
  token: string
  template: string
  language: string
  routes: WhatsAppRoutes
  verifyToken: string
  appSecret: string
  escalateAfterMinutes: number
  workingHours: WorkingHours
}

const WHATSAPP_NEEDS = [
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_TOKEN',
  'WHATSAPP_TEMPLATE',
  'LEADS_WHATSAPP_ROUTES',
  'WHATSAPP_VERIFY_TOKEN',
  'WHATSAPP_APP_SECRET',
] as const
const WHY_NEEDED: Record<(typeof WHATSAPP_NEEDS)[number], string> = {
  WHATSAPP_PHONE_NUMBER_ID: 'the number the messages are sent from',
  WHATSAPP_TOKEN: 'the Cloud API refuses every message without it',
  WHATSAPP_TEMPLATE: 'the approved template the messages are sent with',
  LEADS_WHATSAPP_ROUTES: 'the reps the messages go to',
  WHATSAPP_VERIFY_TOKEN: 'Meta registers the status webhook with it',
  WHATSAPP_APP_SECRET:
    'without the status webhook no message is ever seen read, and every request would be escalated',
}

type Read = <N extends keyof typeof SETTINGS>(name: N) => Value<N> | undefined

/** The WhatsApp routes: the team file's reps when there is one, LEADS_WHATSAPP_ROUTES otherwise. */
function readRoutes(read: Read, team: Team | null): WhatsAppRoutes {
  if (team !== null) {
    try {
      return teamWhatsAppRoutes(team)
    } catch (error) {
      throw new SettingError(
        `LEADS_TEAM_FILE ${read('LEADS_TEAM_FILE')} ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
  try {
    return parseWhatsAppRoutes(read('LEADS_WHATSAPP_ROUTES')!)
  } catch (error) {
    throw new SettingError(
      `LEADS_WHATSAPP_ROUTES ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

function readWhatsApp(read: Read, team: Team | null): WhatsAppConfig | undefined {
  // The team file names the reps: LEADS_WHATSAPP_ROUTES is not needed beside it.
  const needs = WHATSAPP_NEEDS.filter((name) => team === null || name !== 'LEADS_WHATSAPP_ROUTES')
  const set = needs.filter((name) => read(name) !== undefined)
  if (set.length === 0) return undefined
  const missing = needs.find((name) => read(name) === undefined)
  if (missing !== undefined) {
    throw new SettingError(`${missing} must be set when ${set[0]} is: ${WHY_NEEDED[missing]}`)
  }
  const routes = readRoutes(read, team)
  return {
    apiUrl: read('WHATSAPP_API_URL')!,
    phoneNumberId: read('WHATSAPP_PHONE_NUMBER_ID')!,
    token: read('WHATSAPP_TOKEN')!,
    template: read('WHATSAPP_TEMPLATE')!,
    language: read('WHATSAPP_TEMPLATE_LANGUAGE')!,
    routes,
    verifyToken: read('WHATSAPP_VERIFY_TOKEN')!,
    appSecret: read('WHATSAPP_APP_SECRET')!,
    escalateAfterMinutes: read('LEADS_ESCALATE_AFTER_MINUTES')!,
    workingHours: read('LEADS_WORKING_HOURS')!,
  }
}

/** The team file, read and checked now; null when LEADS_TEAM_FILE is unset. */
function readTeam(read: Read, root: string): Team | null {
  const path = read('LEADS_TEAM_FILE')
  if (path === undefined) return null
  if (read('LEADS_WHATSAPP_ROUTES') !== undefined) {
    throw new SettingError(
      'LEADS_WHATSAPP_ROUTES must be unset when LEADS_TEAM_FILE is: the team file names the reps',
    )
  }
  try {
    return readTeamFile(resolve(root, path), {
      hours: read('LEADS_WORKING_HOURS')!,
      timeZone: read('LEADS_TIME_ZONE')!,
    })
  } catch (error) {
    throw new SettingError(error instanceof Error ? error.message : String(error))
  }
}

function readDelivery(read: Read, team: Team | null) {
  const smtpUrl = read('SMTP_URL')
  const to = read('LEADS_MAIL_TO')
  const from = read('LEADS_MAIL_FROM')
  const url = read('LEADS_WEBHOOK_URL')
  const secret = read('LEADS_WEBHOOK_SECRET')
  const timeZone = read('LEADS_TIME_ZONE')!
  const alertAfterMs = read('LEADS_ALERT_AFTER_SECONDS')! * 1000
  const delivery: DeliveryConfig = { timeZone, alertAfterMs }
  if (smtpUrl !== undefined) {
    if (to === undefined)
      throw new SettingError('LEADS_MAIL_TO must be set when SMTP_URL is: who receives the mails')
    if (from === undefined)
      throw new SettingError('LEADS_MAIL_FROM must be set when SMTP_URL is: who sends the mails')
    delivery.email = { smtpUrl, to, from }
  } else if (to !== undefined || from !== undefined) {
    throw new SettingError(
      `SMTP_URL must be set when ${to !== undefined ? 'LEADS_MAIL_TO' : 'LEADS_MAIL_FROM'} is: the mail server that sends the mails`,
    )
  }
  if (url !== undefined) {
    if (secret === undefined) {
      throw new SettingError(
        'LEADS_WEBHOOK_SECRET must be set when LEADS_WEBHOOK_URL is: the webhook is always signed',
      )
    }
    delivery.webhook = { url, secret }
  } else if (secret !== undefined) {
    throw new SettingError(
      'LEADS_WEBHOOK_URL must be set when LEADS_WEBHOOK_SECRET is: where to post the requests',
    )
  }
  const whatsapp = readWhatsApp(read, team)
  // Checked even without the channel: a wrong value is told at once, not when it is turned on.
  read('LEADS_ESCALATE_AFTER_MINUTES')
  read('LEADS_WORKING_HOURS')
  if (whatsapp !== undefined) {
    delivery.whatsapp = whatsapp
    delivery.phoneRegions = phoneRegions(routeCallingCodes(whatsapp.routes))
  }
  return delivery
}

/**
 * DATA_DIR as the server, `npm run outbox` and `npm run dev` all take it: unset or blank, the
 * default; relative, against the repository (`root`), whatever the working directory.
 */
export function readDataDir(env: NodeJS.ProcessEnv, root: string): string {
  return resolve(root, settingsReader(SETTINGS, env).required('DATA_DIR'))
}

/**
 * DIST_DIR as the server and `npm start` take it, resolved like DATA_DIR.
 * @public scripts/start.mjs imports it from the compiled server, where knip does not look.
 */
export function readDistDir(env: NodeJS.ProcessEnv, root: string): string {
  return resolve(root, settingsReader(SETTINGS, env).required('DIST_DIR'))
}

/** The server's configuration from the environment; relative paths resolve against `root`. */
export function readConfig(env: NodeJS.ProcessEnv, root: string): ServerConfig {
  const { read, required } = settingsReader(SETTINGS, env)
  const team = readTeam(read, root)
  return {
    port: required('PORT'),
    host: required('HOST'),
    distDir: readDistDir(env, root),
    dataDir: readDataDir(env, root),
    logLevel: required('LOG_LEVEL'),
    shutdownGraceMs: required('SHUTDOWN_GRACE_MS'),
    rateLimitPerMinute: required('DEMO_RATE_LIMIT_PER_MINUTE'),
    totalLimitPerMinute: required('DEMO_TOTAL_LIMIT_PER_MINUTE'),
    heldLimit: required('DEMO_HELD_LIMIT'),
    maxConnections: required('MAX_CONNECTIONS'),
    maxConnectionsPerClient: required('MAX_CONNECTIONS_PER_CLIENT'),
    outboxMaxBytes: required('OUTBOX_MAX_BYTES'),
    trustProxy: read('TRUST_PROXY') ?? false,
    databaseUrl: read('DATABASE_URL'),
    retentionDays: required('LEADS_RETENTION_DAYS'),
    delivery: readDelivery(read, team),
    metricsPort: readMetricsPort(read),
    metricsHost: required('METRICS_HOST'),
    team,
  }
}

/** METRICS_PORT, never the public port: the metrics must not reach the site's visitors. */
function readMetricsPort(
  read: <N extends keyof typeof SETTINGS>(name: N) => Value<N> | undefined,
): number | undefined {
  const port = read('METRICS_PORT')
  if (port !== undefined && port === read('PORT')) {
    throw new SettingError(
      `METRICS_PORT must differ from PORT (both ${port}): the metrics are never served on the public port`,
    )
  }
  return port
}
