// The documented alert rules in a real Prometheus (Debian's, as .ci/run installs it) scraping two
// servers on one PostgreSQL while their webhook fails: the channel-down alert fires once for the
// fleet, not once per server. The rules are docs/production.md's, read from the page; the one
// change is the threshold, 600 s there, 2 s here, so that the test does not wait ten minutes.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeDistForThisFile } from '../testing/server/per-file.js'
import { freePort } from '../testing/free-port.mjs'
import { request } from '../testing/server/http.js'
import { startPeers, WEBHOOK_SECRET } from '../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { freshDatabase } from '../testing/server/postgres.js'
import { MAIN_JS } from '../testing/server/compiled-server.js'
import { startSite, type RunningSite } from '../testing/site.js'

const dist = fakeDistForThisFile()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** docs/production.md's rules, the threshold of 600 s made 2 s. */
function documentedRules(): string {
  const text = readFileSync('docs/production.md', 'utf8')
  const section = text.slice(text.indexOf('#### Alert rules'))
  const rules = /```yaml\n(groups:[\s\S]*?)```/.exec(section)?.[1]
  if (rules === undefined) throw new Error('docs/production.md has no rules under "Alert rules"')
  expect(rules.match(/> 600/g)).toHaveLength(2)
  return rules.replaceAll('> 600', '> 2')
}

interface Alert {
  labels: Record<string, string>
  state: string
}

/** An instant query's answer (Prometheus's HTTP API): each series with [time, value]. */
interface QueryAnswer {
  data: { result: { value: [number, string] }[] }
}

describe('a real Prometheus with the documented rules', () => {
  it('scraping two servers on one PostgreSQL while the webhook fails, fires one alert for the fleet', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    webhook.failNext = 1_000_000 // the CRM answers 500 to everything
    webhook.failStatus = 500
    const databaseUrl = await freshDatabase()
    const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-prometheus-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const metricsPorts = [await freePort(), await freePort()]
    const servers: RunningSite[] = []
    for (const port of metricsPorts) {
      const server = await startSite({
        host: 'node',
        server: MAIN_JS,
        build: { dir: dist.dist },
        env: {
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SMTP_URL: smtp.url,
          LEADS_MAIL_TO: 'ventas@gaspre.mx',
          LEADS_MAIL_FROM: 'avisos@gaspre.mx',
          LEADS_WEBHOOK_URL: webhook.url,
          LEADS_WEBHOOK_SECRET: WEBHOOK_SECRET,
          METRICS_PORT: String(port),
        },
      })
      servers.push(server)
      cleanups.push(async () => {
        server.child.kill('SIGKILL')
        await server.exited
      })
    }
    expect((await sendDemoRequest(servers[0]!.origin, DEMO_PARAMS)).status).toBe(200)

    const config = join(dataDir, 'prometheus.yml')
    await writeFile(join(dataDir, 'gaspre-rules.yml'), documentedRules())
    await writeFile(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [gaspre-rules.yml]',
        'scrape_configs:',
        '  - job_name: gaspre',
        '    static_configs:',
        `      - targets: [${metricsPorts.map((port) => `'127.0.0.1:${port}'`).join(', ')}]`,
        '',
      ].join('\n'),
    )
    const webPort = await freePort()
    const prometheus: ChildProcess = spawn(
      'prometheus',
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dataDir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${webPort}`,
      ],
      { stdio: 'ignore' },
    )
    cleanups.push(async () => {
      prometheus.kill('SIGKILL')
      await new Promise((resolve) => prometheus.once('exit', resolve))
    })
    const alerts = async (): Promise<Alert[]> => {
      const answer = await request(`http://127.0.0.1:${webPort}`, '/api/v1/alerts').catch(
        () => null,
      )
      if (answer?.status !== 200) return []
      return (JSON.parse(answer.text) as { data: { alerts: Alert[] } }).data.alerts
    }
    const firing = async () =>
      (await alerts())
        .filter((alert) => alert.state === 'firing')
        .map((alert) => alert.labels)
        .sort((a, b) => (a.alertname ?? '').localeCompare(b.alertname ?? ''))

    // Both servers scraped, each at least once: the rule reads ten minutes of each one's series,
    // so from then on both are in every evaluation. Read at one instant instead, `up` could be 1:
    // on a loaded machine a scrape can outlast its one-second interval and count as down.
    const scrapedUp = async () => {
      const answer = await request(
        `http://127.0.0.1:${webPort}`,
        `/api/v1/query?query=${encodeURIComponent('sum(up{job="gaspre"})')}`,
      ).catch(() => null)
      if (answer?.status !== 200) return null
      return (JSON.parse(answer.text) as QueryAnswer).data.result[0]?.value[1] ?? null
    }
    await expect.poll(scrapedUp, { timeout: 60_000, interval: 500 }).toBe('2')

    // Both servers report the webhook's outage from the store: one alert, without an instance.
    await expect.poll(firing, { timeout: 60_000, interval: 500 }).toContainEqual({
      alertname: 'GaspreDeliveryChannelDown',
      channel: 'webhook',
      job: 'gaspre',
      severity: 'page',
    })
    const down = (await firing()).filter((alert) => alert.alertname === 'GaspreDeliveryChannelDown')
    expect(down).toHaveLength(1)
    // The mail, which delivers, is not down.
    expect(down.map((alert) => alert.channel)).toEqual(['webhook'])
  }, 120_000)
})
