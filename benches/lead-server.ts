// What the delivery benches start: the app on a temporary SQLite store and a fake dist/, with
// the delivery worker at its production timings (no test shortcuts), listening on a loopback
// port, and the intake's limits out of the way.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DemoRequests } from '../server/demo-requests/demo-requests.js'
import { DeliveryWorker } from '../server/delivery/worker.js'
import { LARGEST_RECORD_BYTES } from '../server/intake/demo-request-check.js'
import type { DeliveryConfig } from '../server/settings/config.js'
import { openLeadStore, type LeadStore } from '../server/store/lead-store.js'
import { buildTestApp } from '../testing/server/app-on-temporary-store.js'
import { makeFakeDist } from '../testing/server/fake-dist.js'

export interface LeadServer {
  /** Where it listens, such as http://127.0.0.1:41234. */
  url: string
  store: LeadStore
  close(): Promise<void>
}

export async function startLeadServer(delivery: DeliveryConfig): Promise<LeadServer> {
  const dist = await makeFakeDist()
  const scratch = await mkdtemp(join(tmpdir(), 'gaspre-bench-'))
  const store = await openLeadStore(
    { dataDir: scratch },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  const worker = new DeliveryWorker(store, delivery)
  const app = buildTestApp({
    distDir: dist.dist,
    demoRequests: DemoRequests.delivering(store, delivery, worker),
    limits: { rateLimitPerMinute: 1_000_000, totalLimitPerMinute: 1_000_000 },
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  worker.start(app.log)
  return {
    url,
    store,
    async close() {
      await app.close()
      await worker.stop()
      await store.close()
      await rm(scratch, { recursive: true, force: true })
      await rm(dist.root, { recursive: true, force: true })
    },
  }
}
