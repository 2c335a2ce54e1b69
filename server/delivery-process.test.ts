// Delivery across processes: a server killed with -9 while its deliveries wait for a mail
// server that is down delivers every one after its restart, once; two servers on one
// PostgreSQL under 20 concurrent senders mail each request once.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { makeFakeDist, type FakeDist } from '../testing/server/fake-dist.js'
import {
  WEBHOOK_SECRET,
  startSmtpPeer,
  startWebhookPeer,
  type SmtpPeer,
  type WebhookPeer,
} from '../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { freshDatabase } from '../testing/server/postgres.js'
import { MAIN_JS } from '../testing/server/compiled-server.js'
import { startSite, type RunningSite } from '../testing/site.js'
import { storedRequests } from '../testing/server/store.js'

let dist: FakeDist
let dataDir: string
let smtp: SmtpPeer
let webhook: WebhookPeer
const running: RunningSite[] = []

beforeAll(async () => {
  dist = await makeFakeDist()
})
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL')
      await server.exited
    }
  }
  await smtp.close()
  await webhook.close()
  await rm(dataDir, { recursive: true, force: true })
})
afterAll(async () => {
  await rm(dist.root, { recursive: true, force: true })
})

async function peers(): Promise<Record<string, string>> {
  smtp = await startSmtpPeer()
  webhook = await startWebhookPeer()
  dataDir = await mkdtemp(join(tmpdir(), 'gaspre-delivery-'))
  return {
    DATA_DIR: dataDir,
    DEMO_RATE_LIMIT_PER_MINUTE: '100000',
    DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    SMTP_URL: smtp.url,
    LEADS_MAIL_TO: 'ventas@gaspre.mx',
    LEADS_MAIL_FROM: 'avisos@gaspre.mx',
    LEADS_WEBHOOK_URL: webhook.url,
    LEADS_WEBHOOK_SECRET: WEBHOOK_SECRET,
  }
}

const start = async (env: Record<string, string>): Promise<RunningSite> => {
  const server = await startSite({ host: 'node', server: MAIN_JS, build: { dir: dist.dist }, env })
  running.push(server)
  return server
}

const countBy = (values: string[]) => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

describe.each(['sqlite', 'postgres'] as const)('on %s', (kind) => {
  it('killed (-9) with deliveries pending, the restarted server delivers every one, once', async () => {
    const env = await peers()
    const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
    if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl
    smtp.failNext = 1_000_000 // the mail server is down
    webhook.failNext = 1_000_000 // and so is the CRM
    const first = await start(env)
    await expect
      .poll(() => first.lines)
      .toContain(
        'Each request is delivered by e-mail to ventas@gaspre.mx and webhook to ' +
          new URL(webhook.url).origin,
      )
    for (let i = 0; i < 5; i++) {
      const res = await sendDemoRequest(first.origin, { ...DEMO_PARAMS, contact_number: `${i}` })
      expect(res.status).toBe(200)
    }
    await expect.poll(() => smtp.attempts, { timeout: 20_000 }).toBeGreaterThanOrEqual(5)
    first.child.kill('SIGKILL')
    await first.exited

    smtp.failNext = 0
    webhook.failNext = 0
    await start(env)
    const ids = (await storedRequests({ dataDir, databaseUrl })).map((request) => request.id)
    expect(ids).toHaveLength(5)
    // Every delivery recorded as delivered (after its send reached the peer).
    await expect
      .poll(
        async () =>
          (await storedRequests({ dataDir, databaseUrl }))
            .flatMap((r) => r.deliveries.map((d) => d.state))
            .join(),
        { timeout: 60_000 },
      )
      .toBe(Array(10).fill('delivered').join())
    expect(smtp.mails.map((mail) => mail.messageId).sort()).toEqual(
      ids.map((id) => `<lead-${id}@gaspre.mx>`).sort(),
    )
    expect(webhook.received.map((posted) => posted.id).sort()).toEqual([...ids].sort())
  })
})

describe('two servers on one PostgreSQL', () => {
  it('under 20 concurrent senders, mail and post each acknowledged request once', async () => {
    const env = { ...(await peers()), DATABASE_URL: await freshDatabase() }
    const [a, b] = await Promise.all([start(env), start(env)])
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sendDemoRequest((i % 2 === 0 ? a! : b!).origin, { ...DEMO_PARAMS, contact_number: `${i}` }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const databaseUrl = env.DATABASE_URL
    await expect
      .poll(
        async () =>
          (await storedRequests({ dataDir, databaseUrl })).every((r) =>
            r.deliveries.every((d) => d.state === 'delivered'),
          ),
        { timeout: 30_000 },
      )
      .toBe(true)
    const ids = (await storedRequests({ dataDir, databaseUrl })).map((r) => r.id)
    expect(ids).toHaveLength(20)
    const mailed = countBy(smtp.mails.map((mail) => mail.messageId ?? ''))
    expect([...mailed.keys()].sort()).toEqual(ids.map((id) => `<lead-${id}@gaspre.mx>`).sort())
    expect([...mailed.values()]).toEqual(Array(20).fill(1))
    const posted = countBy(webhook.received.map((p) => p.id))
    expect([...posted.values()]).toEqual(Array(20).fill(1))
  })
})
