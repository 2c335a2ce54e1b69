// A store as an older version of the server left it: the same file or database, migrated only
// up to `last` (the migrations up to it are those that version shipped; none is ever edited).
// The caller writes rows as that version wrote them, destroys the handle, and opens the store
// with this version, which applies the rest.
import { Migrator, type Kysely } from 'kysely'
import type { StoreOptions } from '../../server/store/capacity.js'
import { migrations } from '../../server/store/migrations/index.js'
import { openPostgresDialect } from '../../server/store/postgres.js'
import { openSqliteDialect } from '../../server/store/sqlite.js'

const OPTIONS: StoreOptions = { maxBytes: 1024 ** 3, largestRecordBytes: 0 }

export async function storeMigratedTo(
  target: { dataDir: string; databaseUrl?: string | undefined },
  last: string,
): Promise<Kysely<unknown>> {
  const dialect =
    target.databaseUrl === undefined
      ? openSqliteDialect(target.dataDir, OPTIONS)
      : await openPostgresDialect(target.databaseUrl)
  await dialect.migrating(async (db) => {
    const { error } = await new Migrator({ db, provider: migrations }).migrateTo(last)
    if (error !== undefined) throw error
  })
  return dialect.db as unknown as Kysely<unknown>
}
