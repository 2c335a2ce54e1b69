// Migration 080: the listing's order within the held and the not held requests.
import type { Kysely, Migration } from 'kysely'

/**
 * `npm run outbox` lists the requests that are not held, then the held ones, each newest first
 * and page by page (listing.ts). With only an index on `held`, SQLite took every row of the kind
 * and sorted it for each page: the whole table in memory, once a page. This index gives both in
 * their order, so that a page reads its 500 rows and no more.
 */
export const listingOrder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('lead_requests_held_received_at')
      .on('lead_requests')
      .columns(['held', 'received_at', 'id'])
      .execute()
  },
}
