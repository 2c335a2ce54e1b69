// The browser suites' server, as testing/site.ts runs it (`withFullDisk`): the compiled production
// server of build/server/, started as `npm start` starts it (the same store, intake and delivery
// worker, configured by PORT, DATA_DIR, …), with one test seam: a full disk for the e-mail domain
// of testing/full-disk.mjs, made inside the store's SQLite connection. Every other fault a test
// needs (an error status, a dropped connection, a slow answer) it makes in the browser, with
// Playwright's request routing; nothing of the tests is in the server's request paths.
import { fullDiskFor } from './full-disk.mjs'

const { isOperatorError, startServer } = await import('../build/server/start-server.js')

await startServer({ onSqliteOpen: fullDiskFor }).catch((error) => {
  console.error(isOperatorError(error) ? error.message : error)
  process.exit(1)
})
