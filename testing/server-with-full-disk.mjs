// The browser suites' server, as testing/site.ts runs it (`withFullDisk`): the compiled production
// app of build/server/, configured as `npm start` is (PORT, DATA_DIR, …), with one test seam: a
// full disk for the e-mail domain of testing/full-disk.mjs. Every other fault a test needs (an
// error status, a dropped connection, a slow answer) it makes in the browser, with Playwright's
// request routing; nothing of the tests is in the server's request paths.
import { fileURLToPath } from 'node:url'
import { fullDiskFor } from './full-disk.mjs'

const { buildApp } = await import('../build/server/app.js')
const { readConfig } = await import('../build/server/config.js')
const { nodeOutboxIo } = await import('../build/server/outbox.js')

const config = readConfig(process.env, fileURLToPath(new URL('..', import.meta.url)))
const app = buildApp({
  distDir: config.distDir,
  dataDir: config.dataDir,
  logger: { level: 'warn' },
  limits: config,
  outboxIo: fullDiskFor(nodeOutboxIo),
})
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => void app.close().then(() => process.exit(0)))
}
const address = await app.listen({ port: config.port, host: config.host })
// The line the production server prints (server/main.ts), which testing/site.ts waits for.
console.log(`Listening on ${address}/`)
