// The embedded store survives the garbage collector on every Node line. On Node 24.19 and later
// a better-sqlite3 12 statement or database finalized by an idle-time collection aborts the
// process (nodejs/node#65446); the store keeps every one it makes (sqlite-connections.ts).
// Run in a process of its own, on this test run's Node: the LTS lane runs it on Node 24.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { TEST_SERVER_DIR } from '../../testing/server/compiled-server.js'

let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gaspre-gc-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/** Stores and reads for a few seconds while making garbage, as a busy server does. */
const BUSY_SERVER = `
const { openLeadStore } = await import(${JSON.stringify(pathToFileURL(join(TEST_SERVER_DIR, 'store', 'lead-store.js')).href)})
const { newRecord } = await import(${JSON.stringify(pathToFileURL(join(TEST_SERVER_DIR, 'store', 'record.js')).href)})
const store = await openLeadStore({ dataDir: process.argv[1] }, { maxBytes: 1024 ** 3, largestRecordBytes: 16000 })
const until = Date.now() + 5000
let stored = 0
while (Date.now() < until) {
  await store.append(newRecord('s', 't', { user_name: 'Ana ' + stored }))
  stored++
  for (let i = 0; i < 500; i++) await store.count()
  const garbage = []
  for (let i = 0; i < 20000; i++) garbage.push({ i, text: 'x' + i })
  // Idle for a moment, when V8 collects on its own.
  await new Promise((idle) => setTimeout(idle, 5))
}
await store.close()
await new Promise((idle) => setTimeout(idle, 500))
console.log('stored ' + stored)
`

it(`stores and reads under garbage pressure without aborting on Node ${process.versions.node}`, async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '--eval', BUSY_SERVER, dataDir],
    { timeout: 60_000 },
  )
  expect(stdout).toMatch(/^stored \d+\n$/)
})
