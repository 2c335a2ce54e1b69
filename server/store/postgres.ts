// The store on PostgreSQL (DATABASE_URL), which several servers share: migrations one server at
// a time, and the database's own error for a full disk.
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { StoreError, type Dialect } from './dialect.js'
import { errorText } from '../text/index.js'
import type { LeadDatabase } from './schema.js'

/** The database URL for people and logs: without its password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://…'
  }
}

/** Connects to `databaseUrl`; throws a StoreError when it cannot be reached. */
export async function openPostgresDialect(databaseUrl: string): Promise<Dialect> {
  const location = redactUrl(databaseUrl)
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: 10_000,
  })
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined)
  const db = new Kysely<LeadDatabase>({ dialect: new PostgresDialect({ pool }) })
  try {
    await sql`select 1`.execute(db)
  } catch (error) {
    await db.destroy().catch(() => undefined)
    throw new StoreError(`DATABASE_URL ${location} cannot be reached: ${errorText(error)}`)
  }
  return {
    kind: 'postgres',
    setting: 'DATABASE_URL',
    location,
    dataDir: null,
    db,
    transact: (work) => db.transaction().execute(work),

    /** Two servers starting at once on an empty database: one migrates, the other waits. */
    migrating: (work) =>
      db.connection().execute(async (connection) => {
        await sql`select pg_advisory_lock(hashtext('gaspre-lead-store-migrate'))`.execute(
          connection,
        )
        try {
          await work(connection)
        } finally {
          await sql`select pg_advisory_unlock(hashtext('gaspre-lead-store-migrate'))`.execute(
            connection,
          )
        }
      }),

    async usedBytes() {
      const { rows } = await sql<{ bytes: string }>`
        select (pg_total_relation_size('lead_requests') + pg_total_relation_size('lead_jobs'))::text as bytes
      `.execute(db)
      return Number(rows[0]?.bytes ?? 0)
    },

    // 53100: disk_full. The cap is counted before each write (usedBytes), not by the database.
    outOfRoom: (error) =>
      (error as { code?: string } | null)?.code === '53100' ? 'no-space' : null,
  }
}
