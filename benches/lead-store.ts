// `npm run bench:lead-store`: the lead server's store and delivery, measured side by side in one
// run. It prints figures and asserts nothing about time (tests never do):
//   1. demo requests stored per second through the server (20 concurrent senders), in SQLite
//      and in PostgreSQL, each made durable per request;
//   2. the time from the visitor's 200 to the mail in a local SMTP server (median and p95);
//   3. a backlog of 1,000 requests stored while the mail server was down, drained into it once
//      it is back, with the latency of `/` and of a send while it drains.
// PostgreSQL is a throwaway one of its own (Debian's postgresql 15), started and removed here.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent } from 'node:http'
import { buildTestApp } from '../testing/server/app-on-temporary-store.js'
import { DemoRequests } from '../server/demo-requests/demo-requests.js'
import type { DeliveryConfig } from '../server/settings/config.js'
import { DeliveryWorker } from '../server/delivery/worker.js'
import { LARGEST_RECORD_BYTES } from '../server/intake/demo-request-check.js'
import { openLeadStore, type LeadStore } from '../server/store/lead-store.js'
import { newRecord } from '../server/store/record.js'
import pg from 'pg'
import { makeFakeDist } from '../testing/server/fake-dist.js'
import { startSmtpPeer, type SmtpPeer } from '../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { request } from '../testing/server/http.js'
import { startPostgresServer } from '../testing/server/postgres-server.js'
import { waitUntil } from '../testing/wait-until.js'

const REQUESTS = Number(process.env.LEAD_BENCH_REQUESTS ?? 2000)
const SENDERS = 20
const BACKLOG = 1000
const agent = new Agent({ keepAlive: true, maxSockets: SENDERS })

const params = (n: number) => ({
  ...DEMO_PARAMS,
  message: `Tenemos ${n % 40} estaciones y queremos ver una demostración.`,
  contact_number: String(n),
  utm_source: 'google',
  utm_campaign: 'otoño-2025',
})

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}
const ms = (value: number) => `${value.toFixed(1)} ms`

const dist = await makeFakeDist()
const scratch = await mkdtemp(join(tmpdir(), 'gaspre-bench-leads-'))
const postgres = await startPostgresServer()
const closers: (() => Promise<unknown>)[] = []

async function serve(store: LeadStore, worker: DeliveryWorker | null) {
  const app = buildTestApp({
    distDir: dist.dist,
    logger: false,
    limits: {
      rateLimitPerMinute: 1_000_000,
      totalLimitPerMinute: 1_000_000,
      maxConnectionsPerClient: 1000,
    },
    demoRequests: new DemoRequests({
      store,
      channels: worker === null ? [] : ['email'],
      worker,
      alertAfterMs: 600_000,
    }),
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  if (worker !== null) worker.start(app.log)
  closers.push(() => app.close())
  return { url, log: app.log }
}

let databases = 0
async function freshDatabase(): Promise<string> {
  const name = `bench_${databases++}`
  const client = new pg.Client({ connectionString: postgres.url })
  await client.connect()
  await client.query(`create database ${name}`)
  await client.end()
  const url = new URL(postgres.url)
  url.pathname = `/${name}`
  return url.toString()
}

async function openStore(kind: 'sqlite' | 'postgres', dataDir: string) {
  const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  closers.push(() => store.close())
  return store
}

/** Stores REQUESTS requests through the server with SENDERS concurrent senders: requests/s. */
async function storesPerSecond(url: string): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < REQUESTS) {
        const n = next++
        const res = await sendDemoRequest(url, params(n), { agent })
        if (res.status !== 200) throw new Error(`send ${n}: ${res.status} ${res.text}`)
      }
    }),
  )
  return REQUESTS / ((performance.now() - started) / 1000)
}

const emailConfig = (smtp: SmtpPeer): DeliveryConfig => ({
  email: { smtpUrl: smtp.url, to: ['ventas@gaspre.mx'], from: 'avisos@gaspre.mx' },
  timeZone: 'America/Mexico_City',
  alertAfterMs: 600_000,
})

try {
  console.log(`1. Demo requests stored per second (${REQUESTS}, ${SENDERS} concurrent senders)`)
  for (const kind of ['sqlite', 'postgres'] as const) {
    const dataDir = await mkdtemp(join(scratch, `${kind}-`))
    const store = await openStore(kind, dataDir)
    const { url } = await serve(store, null)
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'
    console.log(`   ${label.padEnd(22)} ${(await storesPerSecond(url)).toFixed(0)} requests/s`)
  }

  console.log(
    '2. From the 200 to the mail in the local SMTP server (SQLite, 100 requests, one at a time)',
  )
  {
    const smtp = await startSmtpPeer()
    closers.push(() => smtp.close())
    const dataDir = await mkdtemp(join(scratch, 'latency-'))
    const store = await openStore('sqlite', dataDir)
    const worker = new DeliveryWorker(store, emailConfig(smtp))
    closers.push(() => worker.stop())
    const { url } = await serve(store, worker)
    const delays: number[] = []
    for (let n = 0; n < 100; n++) {
      const before = smtp.mails.length
      const res = await sendDemoRequest(url, params(n), { agent })
      const acknowledged = performance.now()
      if (res.status !== 200) throw new Error(`send ${n}: ${res.status}`)
      // Looked at every millisecond: the delay is what this measures.
      await waitUntil(() => smtp.mails.length > before, {
        what: `mail ${n} reaches the SMTP server`,
        intervalMs: 1,
      })
      delays.push(performance.now() - acknowledged)
    }
    console.log(`   median ${ms(quantile(delays, 0.5))}, p95 ${ms(quantile(delays, 0.95))}`)
  }

  console.log(`3. A backlog of ${BACKLOG} requests drained after a mail server outage (SQLite)`)
  {
    const smtp = await startSmtpPeer()
    closers.push(() => smtp.close())
    const dataDir = await mkdtemp(join(scratch, 'backlog-'))
    const store = await openStore('sqlite', dataDir)
    // The server stores while the mail server is down (no worker yet): the backlog.
    const { url, log } = await serve(store, null)
    for (let n = 0; n < BACKLOG; n++) await store.append(newRecord('s', 't', params(n)), ['email'])
    const probe = async (): Promise<{ page: number[]; send: number[] }> => {
      const page: number[] = []
      const send: number[] = []
      for (let i = 0; i < 40; i++) {
        let t = performance.now()
        await request(url, '/')
        page.push(performance.now() - t)
        t = performance.now()
        await sendDemoRequest(url, params(100_000 + i))
        send.push(performance.now() - t)
        await new Promise((wait) => setTimeout(wait, 20))
      }
      return { page, send }
    }
    const idle = await probe()
    console.log(
      `   idle:     / median ${ms(quantile(idle.page, 0.5))} p95 ${ms(quantile(idle.page, 0.95))}; ` +
        `send median ${ms(quantile(idle.send, 0.5))} p95 ${ms(quantile(idle.send, 0.95))}`,
    )
    // The mail server is back: a worker starts on the backlog.
    const worker = new DeliveryWorker(store, emailConfig(smtp))
    closers.push(() => worker.stop())
    const started = performance.now()
    worker.start(log)
    const during = await probe()
    const total = BACKLOG
    await waitUntil(() => smtp.mails.length >= total, {
      what: `the ${total} mails of the backlog reach the SMTP server`,
      timeoutMs: 600_000,
      intervalMs: 10,
    })
    const drained = (performance.now() - started) / 1000
    console.log(
      `   draining: / median ${ms(quantile(during.page, 0.5))} p95 ${ms(quantile(during.page, 0.95))}; ` +
        `send median ${ms(quantile(during.send, 0.5))} p95 ${ms(quantile(during.send, 0.95))}`,
    )
    console.log(
      `   ${total} mails delivered in ${drained.toFixed(1)} s (${(total / drained).toFixed(0)} mails/s)`,
    )
  }
} finally {
  for (const close of closers.reverse()) await close().catch(() => undefined)
  agent.destroy()
  postgres.stop()
  await rm(scratch, { recursive: true, force: true })
  await rm(dist.root, { recursive: true, force: true })
}
