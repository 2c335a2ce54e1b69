// Opens better-sqlite3 databases for this Node: its own addon, and nothing the addon makes ever
// collected by the garbage collector.
//
// Why: better-sqlite3 12's databases and statements are node::ObjectWrap objects, and since Node
// 24.19 the garbage collector aborts the whole process when it finalizes one outside a
// JavaScript context, as an idle-time collection does ("Assertion failed: (env) != nullptr" in
// RemoveEnvironmentCleanupHook, from Statement::~Statement): nodejs/node#65446, still open; also
// WiseLibs/better-sqlite3#1515. A store that prepares a statement per query, as Kysely's dialect
// does, dies under the next flood of garbage. Measured on this machine with better-sqlite3
// 12.9.0, a statement per query under garbage pressure for 10 s: Node 20.20.2 never aborts;
// Node 24.21.0 (the LTS line production runs) aborts within seconds, and runs clean with the
// statements kept. The store keeps them on every line, so that dev (Node 20) runs the code
// production runs.
//
// How, without patching better-sqlite3: each database is kept for the life of the process, and
// Kysely is given its documented SqliteDatabase interface over it (prepare, close) that prepares
// each SQL text once and keeps the statement. Their number is bounded by the queries the store
// makes. sqlite-connections.test.ts runs a busy store under garbage pressure on this Node (and
// the LTS lane on Node 24) to show it.
//
// When to remove: better-sqlite3 13 moves to Node-API, which has no such finalizer, but needs
// Node 22 or later; once the project drops Node 20, upgrade and delete this module's keeping.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely'

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

/** A database and what is prepared on it, kept for the process (see above). */
export interface KeptSqlite {
  /** The database itself: for exec() (which makes no statement), functions, transactions. */
  readonly sqlite: SqliteDatabase.Database
  /** The same database as Kysely's dialect takes it, each SQL text prepared once. */
  readonly kysely: KyselySqliteDatabase
  /** A kept statement for `source`. */
  prepared(source: string): SqliteDatabase.Statement
}

const KEPT_FOR_THE_PROCESS: KeptSqlite[] = []

/** Opens `file`, kept for the process, with each SQL text prepared once (see above). */
export function openSqlite(file: string): KeptSqlite {
  const nativeBinding = addonForThisNode()
  const sqlite = new SqliteDatabase(file, {
    timeout: 5_000,
    ...(nativeBinding && { nativeBinding }),
  })
  const statements = new Map<string, SqliteDatabase.Statement>()
  const prepared = (source: string): SqliteDatabase.Statement => {
    let statement = statements.get(source)
    if (statement === undefined) {
      statement = sqlite.prepare(source)
      statements.set(source, statement)
    }
    return statement
  }
  const kept: KeptSqlite = {
    sqlite,
    prepared,
    kysely: { prepare: prepared, close: () => sqlite.close() },
  }
  KEPT_FOR_THE_PROCESS.push(kept)
  return kept
}

/** A pragma's value, through a kept statement (better-sqlite3's pragma() makes a new one). */
export const pragmaValue = (kept: KeptSqlite, name: string): number =>
  Number(Object.values(kept.prepared(`PRAGMA ${name}`).get() as Record<string, unknown>)[0])
