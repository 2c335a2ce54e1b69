// The browser suites' server (Playwright's webServer, the engines' global setup): the production
// build of exactly this working tree, rebuilt first if dist/ is stale, served by the compiled
// production app (build/server/). Configured as `npm start` is (PORT, DATA_DIR, …), with one
// test seam: a full disk for the e-mail domain of testing/full-disk.mjs. Every other fault a
// test needs (an error status, a dropped connection, a slow answer) it makes in the browser,
// with Playwright's request routing; nothing of the tests is in the server's request paths.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { staleReason } from '../pipeline/build-stamp.mjs'
import { fullDiskFor } from './full-disk.mjs'

const stale = existsSync('build/server/main.js') ? staleReason('dist') : 'there is no build/server/'
if (stale) {
  console.log(`${stale}: building before the tests.`)
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
}

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
console.log(`Serving the tests on ${address}/`)
