// The store on SQLite, in DATA_DIR: WAL with full synchronous commits (a request is on disk when
// its transaction commits), and the cap (OUTBOX_MAX_BYTES) kept by SQLite itself. The file and
// its journals are its owner's alone (0600), whatever the umask of whoever opens it first.
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import type { StoreOptions } from './capacity.js'
import { StoreError, type Dialect } from './dialect.js'
import { errorText } from '../text/index.js'
import { openSqlite, pragmaValue, type KeptSqlite } from './sqlite-connections.js'
import type { LeadDatabase } from './schema.js'

export const SQLITE_FILE = 'leads.sqlite'

/** Owner's read and write only: the requests are personal data. */
const PRIVATE_FILE = 0o600

/**
 * Makes the store's file 0600 before SQLite opens it: created so if missing, and narrowed if an
 * older version left it (or its -wal and -shm) readable by others. SQLite creates the journals
 * with the database's own mode (its unix VFS, findCreateFileMode), so they follow.
 */
function keepPrivate(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE))
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((statSync(each).mode & 0o077) !== 0) chmodSync(each, PRIVATE_FILE)
    } catch (error) {
      // Not there (no journal yet), or not ours to change (another user's command line).
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'EPERM') throw error
    }
  }
}

/** Opens (or creates) the store's file in `dataDir`; throws a StoreError when it cannot. */
export function openSqliteDialect(dataDir: string, options: StoreOptions): Dialect {
  const file = join(dataDir, SQLITE_FILE)
  let kept: KeptSqlite
  let sqlite: SqliteDatabase.Database
  let pageSize: number
  try {
    keepPrivate(file)
    kept = openSqlite(file)
    sqlite = kept.sqlite
    // exec(), not pragma(): it makes no statement object (see sqlite-connections.ts).
    // secure_delete: what is deleted (an erased request) is overwritten with zeros, not left in
    // free pages.
    sqlite.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; ' +
        'PRAGMA secure_delete = ON',
    )
    pageSize = pragmaValue(kept, 'page_size')
  } catch (error) {
    throw new StoreError(
      `DATA_DIR ${dataDir} cannot hold the demo requests: ${file}: ${errorText(error)}. ` +
        'Point DATA_DIR at a folder this user can write.',
    )
  }
  const db = new Kysely<LeadDatabase>({ dialect: new SqliteDialect({ database: kept.kysely }) })
  return {
    kind: 'sqlite',
    setting: 'DATA_DIR',
    location: file,
    dataDir,
    db,

    /**
     * SQLite rolls a transaction back by itself when the disk or the cap is full; the driver's
     * own rollback would then fail and hide why. BEGIN IMMEDIATE takes the write lock at once,
     * so the CLI writing meanwhile waits its turn (busy timeout) instead of failing half way.
     */
    transact: (work) =>
      db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection)
        try {
          const result = await work(connection)
          await sql`commit`.execute(connection)
          return result
        } catch (error) {
          if (sqlite.inTransaction) await sql`rollback`.execute(connection).catch(() => undefined)
          throw error
        }
      }),

    // One server per file: nobody else migrates it.
    migrating: (work) => work(db),

    migrated: () => {
      // The cap: SQLite refuses to grow the file past it (SQLITE_FULL), whatever the writer.
      // Set once the schema is in place: a migration that moves rows (050) needs room for both
      // copies for a moment, and must not leave a store at its cap unable to start.
      const maxPages = Math.max(Math.floor(options.maxBytes / pageSize), 16)
      sqlite.exec(`PRAGMA max_page_count = ${maxPages}`)
      options.onSqliteOpen?.(sqlite)
    },

    async usedBytes() {
      const pages = pragmaValue(kept, 'page_count')
      const free = pragmaValue(kept, 'freelist_count')
      return (pages - free) * pageSize
    },

    outOfRoom(error, used) {
      if ((error as { code?: string } | null)?.code !== 'SQLITE_FULL') return null
      // The cap (max_page_count) and a full disk say the same; the page count tells them apart.
      const maxPages = pragmaValue(kept, 'max_page_count')
      return used + options.largestRecordBytes * 2 >= maxPages * pageSize ? 'full' : 'no-space'
    },
  }
}
