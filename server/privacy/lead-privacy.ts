// What the privacy notice promises, on the store: every request of one person (access). The
// store erases (store/erasure.ts: a person's requests, the held ones, the expired ones), each
// erasure with its record and, on SQLite, nothing left readable in any file.
import type { LeadStore, StoredRequest } from '../store/index.js'
import { sentBy, type Person } from './person-match.js'

/** Every stored request of `person`, oldest first, with its deliveries. */
export async function requestsOf(store: LeadStore, person: Person): Promise<StoredRequest[]> {
  // Addresses and numbers are compared as people write them, which SQL cannot do alike on
  // SQLite and PostgreSQL: the store is read in pages and each request checked here.
  const found: StoredRequest[] = []
  for await (const request of store.requests({ oldestFirst: true })) {
    if (sentBy(person, request.params)) found.push(request)
  }
  return found
}
