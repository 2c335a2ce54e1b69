// The one way a server test builds the app: on a store of its own, SQLite in a temporary
// DATA_DIR (or PostgreSQL when the test gives a database), as `npm start` has it; close() closes
// both and removes the folder. The app does not listen: `request` answers in-process (inject);
// a test that needs a socket calls `app.listen` itself.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp, type AppOptions } from '../../server/app.js'
import type { Bookings } from '../../server/booking/bookings.js'
import { DemoRequests } from '../../server/demo-requests/demo-requests.js'
import { LARGEST_RECORD_BYTES } from '../../server/intake/demo-request-check.js'
import type { ServerLimits } from '../../server/intake/limits.js'
import { readConfig } from '../../server/settings/config.js'
import {
  openLeadStore,
  type LeadStore,
  type Channel,
  type StoreOptions,
  type StoredRequest,
} from '../../server/store/lead-store.js'
import { injectRequest, type Client } from './inject.js'

/** The settings as `npm start` reads them with no variable set: every default, from one schema. */
export const DEFAULT_SETTINGS = readConfig({}, '.')

/** The app's options as a test gives them: the settings' limits, but for those it changes. */
export type TestAppOptions = Omit<AppOptions, 'limits'> & { limits?: Partial<ServerLimits> }

/** Builds the app as `npm start` does, with the settings' limits unless the test sets some. */
export function buildTestApp({ limits, ...options }: TestAppOptions): FastifyInstance {
  return buildApp({ ...options, limits: { ...DEFAULT_SETTINGS, ...limits } })
}

export interface AppOnStore {
  app: FastifyInstance
  store: LeadStore
  dataDir: string
  /** Sends a request to the app in-process (Fastify's inject), answered as over HTTP. */
  request: Client
  /** The booking, when the test gave one; the test starts it (its calendars' first read). */
  bookings: Bookings | null
  /** What the store holds now, oldest first. */
  stored(): Promise<StoredRequest[]>
  /** Closes the app, then the store, and removes the temporary DATA_DIR. */
  close(): Promise<void>
}

type Options = Omit<TestAppOptions, 'demoRequests'> & {
  /** PostgreSQL instead of SQLite (testing/server/postgres.ts's freshDatabase). */
  databaseUrl?: string
  /** The store's seams (freeBytes, onSqliteOpen). */
  storeOptions?: Partial<StoreOptions>
  /** The channels each request is stored with a pending delivery for (none: only stored). */
  channels?: readonly Channel[]
  /** The booking of meetings, made on the test's store (server/booking/). */
  bookings?: (store: LeadStore) => Bookings
}

export async function appOnTemporaryStore(options: Options): Promise<AppOnStore> {
  const {
    databaseUrl,
    storeOptions,
    channels = [],
    bookings: makeBookings,
    ...appOptions
  } = options
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    {
      maxBytes: appOptions.limits?.outboxMaxBytes ?? DEFAULT_SETTINGS.outboxMaxBytes,
      largestRecordBytes: LARGEST_RECORD_BYTES,
      ...storeOptions,
    },
  )
  const bookings = makeBookings?.(store) ?? null
  // No worker: the test reads what is stored.
  const demoRequests = new DemoRequests({
    store,
    channels,
    worker: null,
    alertAfterMs: DEFAULT_SETTINGS.delivery.alertAfterMs,
    bookings,
  })
  const app = buildTestApp({ ...appOptions, demoRequests })
  return {
    app,
    store,
    dataDir,
    bookings,
    request: (path, requestOptions) => injectRequest(app, path, requestOptions),
    async stored() {
      const requests: StoredRequest[] = []
      for await (const request of store.requests({ oldestFirst: true })) requests.push(request)
      return requests
    },
    async close() {
      try {
        await app.close()
        await bookings?.stop()
        await store.close()
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  }
}
