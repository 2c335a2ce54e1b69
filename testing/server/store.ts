// What a server stored, read the way `npm run outbox` reads it: from the SQLite file in
// DATA_DIR, or from PostgreSQL when the test gave the server a DATABASE_URL.
import { openLeadStore, type LeadStore, type StoredRequest } from '../../server/store/lead-store.js'

export async function storedRequests(target: {
  dataDir: string
  databaseUrl?: string | undefined
}): Promise<StoredRequest[]> {
  const store = await openLeadStore(target, { maxBytes: 1024 ** 4, largestRecordBytes: 0 })
  try {
    const requests: StoredRequest[] = []
    for await (const request of store.requests({ oldestFirst: true })) requests.push(request)
    return requests
  } finally {
    await store.close()
  }
}

/**
 * The database beneath a store, for tests that look at rows no operation reads back (which
 * migrations ran, what an erasure record holds). Product code never gets it: LeadStore keeps
 * it private and hands out named operations.
 */
export const rawDatabase = (store: LeadStore) => store['dialect'].db
