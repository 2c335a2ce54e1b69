// Opens better-sqlite3 databases for this Node: its own addon, and nothing the addon makes ever
// collected by the garbage collector.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'

/**
 * better-sqlite3's addon for this Node's ABI when one was built beside the default one (in
 * lib/binding/node-v<ABI>-<platform>-<arch>/, as the server tests on the LTS line build it);
 * undefined for the one `npm ci` built (build/Release).
 * @internal its tests use it too
 */
export function addonForThisNode(): string | undefined {
  const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'))
  const tag = `node-v${process.versions.modules}-${process.platform}-${process.arch}`
  const addon = join(root, 'lib', 'binding', tag, 'better_sqlite3.node')
  return existsSync(addon) ? addon : undefined
}

/**
 * better-sqlite3 12's databases and statements are node::ObjectWrap objects, and since Node
 * 24.19 the garbage collector aborts the whole process when it finalizes one outside a
 * JavaScript context, as an idle-time collection does (nodejs/node#65446): a server that
 * prepared a statement per query, as Kysely's dialect does, died under the next flood of garbage.
 * (better-sqlite3 13 moves to Node-API, but does not run on Node 20.) So none of ours ever
 * becomes garbage: each database is kept for the life of the process, and each SQL text is
 * prepared once on it and kept. Their number is bounded by the queries the store makes.
 * lead-store-gc.test.ts runs a busy store under garbage pressure to show it.
 */
const KEPT_FOR_THE_PROCESS: SqliteDatabase.Database[] = []

/** Opens `file`, kept for the process, with each SQL text prepared once (see above). */
export function openSqlite(file: string): SqliteDatabase.Database {
  const nativeBinding = addonForThisNode()
  const sqlite = new SqliteDatabase(file, {
    timeout: 5_000,
    ...(nativeBinding && { nativeBinding }),
  })
  KEPT_FOR_THE_PROCESS.push(sqlite)
  const prepared = new Map<string, SqliteDatabase.Statement>()
  const prepare = sqlite.prepare.bind(sqlite)
  sqlite.prepare = ((source: string) => {
    let statement = prepared.get(source)
    if (statement === undefined) {
      statement = prepare(source)
      prepared.set(source, statement)
    }
    return statement
  }) as typeof sqlite.prepare
  return sqlite
}

/** A pragma's value, through a kept statement (better-sqlite3's pragma() makes a new one). */
export const pragmaValue = (sqlite: SqliteDatabase.Database, name: string): number =>
  Number(Object.values(sqlite.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0])
