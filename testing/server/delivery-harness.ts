// One lead server in the test's process, as main.ts wires it: a store (SQLite in a temporary
// folder, or a fresh PostgreSQL database), the app, the delivery worker and its health, with the
// log kept as parsed lines. For the delivery tests, against the peers of delivery-peers.ts.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { buildTestApp, type TestAppOptions } from './app-on-temporary-store.js'
import { DemoRequests } from '../../server/demo-requests/demo-requests.js'
import type { DeliveryConfig, WhatsAppConfig } from '../../server/settings/config.js'
import { phoneRegions } from '../../server/settings/phone-number.js'
import { parseWhatsAppRoutes, routeCallingCodes } from '../../server/settings/whatsapp-routes.js'
import { parseWorkingHours } from '../../server/settings/working-hours.js'
import { STAND_IN_ACCOUNT } from './whatsapp-cloud.js'
import { DeliveryWorker, type WorkerOptions } from '../../server/delivery/worker.js'
import { LARGEST_RECORD_BYTES } from '../../server/intake/demo-request-check.js'
import { openLeadStore, type LeadStore, type StoredRequest } from '../../server/store/lead-store.js'
import { injectRequest, type Client } from './inject.js'
import { freshDatabase } from './postgres.js'
import { WEBHOOK_SECRET } from './delivery-peers.js'
import { recordedLog } from './recorded-log.js'

export interface RunningDelivery {
  store: LeadStore
  /** The app, not listening: a test whose peer calls the server listens itself. */
  app: FastifyInstance
  /** A request to the app, in-process (inject). */
  request: Client
  worker: DeliveryWorker
  log: Record<string, unknown>[]
  /** `GET /healthz/delivery`: its status and body. */
  health(): Promise<{ status: number; body: Record<string, unknown> }>
  /** Every stored request with its deliveries, oldest first. */
  requests(): Promise<StoredRequest[]>
  close(): Promise<void>
}

export interface DeliverySetup {
  kind: 'sqlite' | 'postgres'
  /** An SMTP URL; no mail channel without one. */
  smtpUrl?: string
  mailTo?: string[]
  /** A webhook URL; no webhook channel without one. */
  webhookUrl?: string
  /** A database to share with another server (PostgreSQL); a fresh one otherwise. */
  databaseUrl?: string
  alertAfterMs?: number
  worker?: WorkerOptions
  /** The WhatsApp channel, against the Cloud API stand-in (whatsapp-cloud.ts) at `apiUrl`. */
  whatsapp?: Partial<Omit<WhatsAppConfig, 'routes' | 'workingHours'>> & {
    apiUrl: string
    routes: string
    workingHours?: string
  }
  /** A data folder to keep across a restart (SQLite); a fresh one, removed on close, otherwise. */
  dataDir?: string
  /** The intake's limits (the total ceiling, the held cap, …). */
  limits?: TestAppOptions['limits']
}

/** The routes most WhatsApp tests use: two reps in Mexico, one in Spain, one default. */
export const ROUTES = '+52=+5215511111111,+5215522222222;+34=+34600111222;*=+5215533333333'

export async function startDelivery(
  setup: DeliverySetup & { dist: string },
): Promise<RunningDelivery> {
  const dataDir = setup.dataDir ?? (await mkdtemp(join(tmpdir(), 'gaspre-delivery-')))
  const databaseUrl =
    setup.kind === 'postgres' ? (setup.databaseUrl ?? (await freshDatabase())) : undefined
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  const alertAfterMs = setup.alertAfterMs ?? 600_000
  const delivery: DeliveryConfig = {
    ...(setup.smtpUrl !== undefined && {
      email: {
        smtpUrl: setup.smtpUrl,
        to: setup.mailTo ?? ['ventas@gaspre.mx'],
        from: 'GASPRE <avisos@gaspre.mx>',
      },
    }),
    ...(setup.webhookUrl !== undefined && {
      webhook: { url: setup.webhookUrl, secret: WEBHOOK_SECRET },
    }),
    timeZone: 'America/Mexico_City',
    alertAfterMs,
  }
  if (setup.whatsapp !== undefined) {
    const { routes, workingHours, ...rest } = setup.whatsapp
    const parsedRoutes = parseWhatsAppRoutes(routes)
    delivery.whatsapp = {
      ...STAND_IN_ACCOUNT,
      escalateAfterMinutes: 15,
      ...rest,
      routes: parsedRoutes,
      workingHours: parseWorkingHours(workingHours ?? 'lun-dom 00:00-24:00')!,
    }
    delivery.phoneRegions = phoneRegions(routeCallingCodes(parsedRoutes))
  }
  const worker = new DeliveryWorker(store, delivery, {
    pollMs: 50,
    firstBackoffMs: 50,
    alertAfterMs,
    ...setup.worker,
  })
  const { stream, lines: log } = recordedLog()
  const app = buildTestApp({
    distDir: setup.dist,
    demoRequests: DemoRequests.delivering(store, delivery, worker),
    ...(setup.limits !== undefined && { limits: setup.limits }),
    logger: { level: 'info', stream },
  })
  const client: Client = (path, options) => injectRequest(app, path, options)
  worker.start(app.log)
  const requests = async () => {
    const all: StoredRequest[] = []
    for await (const each of store.requests({ oldestFirst: true })) all.push(each)
    return all
  }
  return {
    store,
    app,
    request: client,
    worker,
    log,
    requests,
    async health() {
      const response = await client('/healthz/delivery')
      return { status: response.status, body: JSON.parse(response.text) as Record<string, unknown> }
    },
    async close() {
      await app.close()
      await worker.stop()
      await store.close()
      if (setup.dataDir === undefined) await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Waits until no delivery of any request is pending, and returns them all. */
export async function settled(
  running: Pick<RunningDelivery, 'requests'>,
  timeout = 20_000,
): Promise<StoredRequest[]> {
  let all: StoredRequest[] = []
  await expect
    .poll(
      async () => {
        all = await running.requests()
        return all.every((each) => each.deliveries.every((d) => d.state !== 'pending'))
      },
      { timeout, interval: 50 },
    )
    .toBe(true)
  return all
}

/** The log's events, as `event channel` strings. */
export const events = (log: readonly Record<string, unknown>[]): string[] =>
  log.map((line) => `${String(line.event)} ${String(line.channel)}`)
