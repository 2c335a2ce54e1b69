// The one fault the browser suites need from the server itself: a disk with no room left, for
// the demo requests of one made-up e-mail domain only, so that every other test in the same run
// still stores its requests. It is made inside the production store's own SQLite connection
// (StoreOptions.onSqliteOpen): a trigger on the requests table fails that insert with SQLite's
// "database or disk is full" (SQLITE_FULL), so the store's transaction, its rollback, its reading
// of the error and its readiness probe all run as on a real full disk, and what a visitor then
// sees is the production server's own answer.

/** A demo request whose e-mail ends in this domain finds the disk full. */
export const FULL_DISK_DOMAIN = '@disco-lleno.prueba'

/**
 * Installs the fault on the store's connection (it lasts as long as the connection: TEMP).
 * @param {import('better-sqlite3').Database} connection
 */
export function fullDiskFor(connection) {
  connection.function('gaspre_disk_full', () => {
    throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
  })
  connection.exec(
    'CREATE TEMP TRIGGER gaspre_full_disk BEFORE INSERT ON main.lead_requests ' +
      `WHEN instr(NEW.params, '${FULL_DISK_DOMAIN}') > 0 BEGIN SELECT gaspre_disk_full(); END`,
  )
}
