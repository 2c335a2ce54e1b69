// Migration 020: requests held past the total ceiling (a flood) until a person decides.
import type { Kysely, Migration } from 'kysely'

export const heldRequests: Migration = {
  async up(db: Kysely<unknown>) {
    // Held: a request that came past the total ceiling, kept apart until a person releases or
    // erases it. On the request, so that one stored with no channel configured is held too.
    await db.schema
      .alterTable('lead_requests')
      .addColumn('held', 'integer', (column) => column.notNull().defaultTo(0))
      .execute()
    await db.schema.createIndex('lead_requests_held').on('lead_requests').column('held').execute()
  },
}
