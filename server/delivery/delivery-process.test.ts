// Delivery across processes: a server killed with -9 while its deliveries wait for a mail
// server that is down delivers every one after its restart, once; two servers on one
// PostgreSQL under 20 concurrent senders mail each request once; SIGTERM stops in its grace
// whatever a mail server does; the metrics answer on METRICS_PORT and never on the public port.
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeDistForThisFile } from '../../testing/server/per-file.js'
import { freePort } from '../../testing/free-port.mjs'
import { request } from '../../testing/server/http.js'
import {
  WEBHOOK_SECRET,
  startHostileSmtpPeer,
  startSmtpPeer,
  startWebhookPeer,
  type SmtpPeer,
  type WebhookPeer,
} from '../../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { MAIN_JS } from '../../testing/server/compiled-server.js'
import { startSite, type RunningSite } from '../../testing/site.js'
import { storedRequests } from '../../testing/server/store.js'

const dist = fakeDistForThisFile()
let dataDir: string
let smtp: SmtpPeer
let webhook: WebhookPeer
const running: RunningSite[] = []

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
    // Room for the waits above: the dead server's leases (20 s) and the held channels' next
    // probe (backed off while the peers failed) both run out before anything is re-sent.
  }, 150_000)
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

describe('an operator', () => {
  it('stops the server with SIGTERM within its grace while a mail server answers without end', async () => {
    const env = await peers()
    const hostile = await startHostileSmtpPeer('answers-forever', { everyMs: 100 })
    try {
      const server = await start({ ...env, SMTP_URL: hostile.url, SHUTDOWN_GRACE_MS: '3000' })
      expect((await sendDemoRequest(server.origin, DEMO_PARAMS)).status).toBe(200)
      await expect.poll(() => hostile.open(), { timeout: 10_000 }).toBe(1)
      // The webhook's post is done before the stop (on a loaded machine it may still be on its
      // way when the mail server answers), so that only the mail is cut by it.
      await expect
        .poll(
          async () =>
            (await storedRequests({ dataDir }))[0]?.deliveries.find((d) => d.channel === 'webhook')
              ?.state,
          { timeout: 10_000 },
        )
        .toBe('delivered')
      server.child.kill('SIGTERM')
      // Exit code 0: it finished stopping before the grace ran out (close-with-grace exits 1 then).
      expect(await server.exited).toEqual({ code: 0, signal: null })
      const [stored] = await storedRequests({ dataDir })
      // The mail cut by the stop is put back as it was, for the next start.
      expect(stored!.deliveries.map((d) => [d.channel, d.state, d.attempts])).toEqual([
        ['email', 'pending', 0],
        ['webhook', 'delivered', 1],
      ])
    } finally {
      await hostile.close()
    }
  })

  it('reads the metrics on METRICS_PORT, on 127.0.0.1 only, and never on the public port', async () => {
    const env = await peers()
    const port = await freePort()
    const server = await start({ ...env, METRICS_PORT: String(port) })
    // The lines after "Listening on" may arrive in a later chunk.
    await expect
      .poll(() => server.lines)
      .toContain(`Metrics for Prometheus on http://127.0.0.1:${port}/metrics`)
    expect((await sendDemoRequest(server.origin, DEMO_PARAMS)).status).toBe(200)
    const metrics = async () => (await request(`http://127.0.0.1:${port}`, '/metrics')).text
    await expect
      .poll(metrics, { timeout: 10_000 })
      .toContain('gaspre_deliveries_total{channel="email",outcome="delivered"} 1')
    for (const line of [
      'gaspre_deliveries_total{channel="webhook",outcome="delivered"} 1',
      'gaspre_deliveries_total{channel="email",outcome="dead_letter"} 0',
      'gaspre_deliveries_pending{channel="email"} 0',
      'gaspre_delivery_oldest_pending_age_seconds{channel="webhook"} 0',
      'gaspre_dead_letters{channel="email"} 0',
      'gaspre_channel_up{channel="email"} 1',
      'gaspre_channel_failing_since_seconds{channel="webhook"} 0',
      'gaspre_delivery_oldest_pending_since_seconds{channel="email"} 0',
      'gaspre_requests_held 0',
      '# TYPE process_cpu_user_seconds_total counter',
    ]) {
      // The gauges are read from the store at most once a second: a scrape may still hold the
      // moment before the counter went up.
      await expect.poll(metrics, { timeout: 10_000 }).toContain(line)
    }
    const text = await metrics()
    // No visitor's data in any label.
    expect(text).not.toMatch(/ana@gasolinera|Ana L/)
    const publicAnswer = await request(server.origin, '/metrics')
    expect(publicAnswer.text).not.toContain('gaspre_')
    // Prometheus's own linter finds nothing to say (it exits 3 on a problem).
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
    expect(lint.stdout + lint.stderr).toBe('')
    expect(lint.status).toBe(0)
  })

  it('serves the metrics on METRICS_HOST, for a Prometheus in another container', async () => {
    const env = await peers()
    const port = await freePort()
    // Another loopback address than the default's: what the metrics listen on is the setting's.
    const server = await start({ ...env, METRICS_PORT: String(port), METRICS_HOST: '127.0.0.2' })
    await expect
      .poll(() => server.lines)
      .toContain(`Metrics for Prometheus on http://127.0.0.2:${port}/metrics`)
    expect((await request(`http://127.0.0.2:${port}`, '/metrics')).text).toContain(
      'gaspre_channel_up{channel="email"} 1',
    )
    await expect(request(`http://127.0.0.1:${port}`, '/metrics')).rejects.toThrow()
  })
})
