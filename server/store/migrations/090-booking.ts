// Migration 090: the booking of a meeting with the request's rep (server/booking/).
import type { Kysely, Migration } from 'kysely'

/**
 * `lead_bookings`: one per request whose rep has a calendar, with the SHA-256 of the token in
 * its address (the token itself is never stored) and when it stops working.
 * `lead_meetings`: the meeting booked for a request, at most one; the unique (rep, start_at)
 * is what makes two visitors who pick one time at the same moment get one meeting between them,
 * on SQLite and on every server sharing PostgreSQL. Both go with their request (cascade), so
 * erasure and retention take them. `lead_booking_mails`: when an invitation went to a visitor's
 * address (its SHA-256, kept a day), so that one address gets at most three a day.
 */
export const booking: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_bookings')
      .addColumn('request_id', 'text', (column) =>
        column.primaryKey().references('lead_requests.id').onDelete('cascade'),
      )
      .addColumn('rep', 'text', (column) => column.notNull())
      .addColumn('token_hash', 'text', (column) => column.notNull().unique())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createTable('lead_meetings')
      .addColumn('request_id', 'text', (column) =>
        column.primaryKey().references('lead_requests.id').onDelete('cascade'),
      )
      .addColumn('rep', 'text', (column) => column.notNull())
      .addColumn('start_at', 'bigint', (column) => column.notNull())
      .addColumn('end_at', 'bigint', (column) => column.notNull())
      .addColumn('uid', 'text', (column) => column.notNull())
      .addColumn('sequence', 'integer', (column) => column.notNull())
      .addColumn('booked_at', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createTable('lead_booking_mails')
      .addColumn('address_hash', 'text', (column) => column.notNull())
      .addColumn('sent_at', 'bigint', (column) => column.notNull())
      .execute()
    await db.schema
      .createIndex('lead_booking_mails_address')
      .on('lead_booking_mails')
      .columns(['address_hash', 'sent_at'])
      .execute()
    await db.schema
      .createIndex('lead_meetings_rep_start')
      .on('lead_meetings')
      .columns(['rep', 'start_at'])
      .unique()
      .execute()
  },
}
