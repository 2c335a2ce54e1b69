// The alert rules of docs/production.md, read from the page itself so that they cannot drift:
// `promtool check rules` and `check config` accept them, and `promtool test rules` (Debian's
// prometheus package, as .ci/run installs it) shows each one firing when it should, once per
// fleet of servers on one PostgreSQL, and keeping its clock through a restart in the middle of an
// outage (decision 025).
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)

/** The fenced YAML blocks of docs/production.md's section on alert rules. */
function documentedYaml(): { scrape: string; rules: string } {
  const text = readFileSync('docs/production.md', 'utf8')
  const start = text.indexOf('#### Alert rules')
  const end = text.indexOf('\n#', start + 1)
  const blocks = [...text.slice(start, end).matchAll(/```yaml\n([\s\S]*?)```/g)].map(
    (match) => match[1]!,
  )
  const scrape = blocks.find((block) => block.startsWith('scrape_configs:'))
  const rules = blocks.find((block) => block.startsWith('groups:'))
  if (scrape === undefined || rules === undefined) {
    throw new Error('docs/production.md has no scrape config or rules under "#### Alert rules"')
  }
  return { scrape, rules }
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gaspre-alert-rules-'))
  const { scrape, rules } = documentedYaml()
  await writeFile(join(dir, 'gaspre-rules.yml'), rules)
  await writeFile(join(dir, 'prometheus.yml'), `rule_files: [gaspre-rules.yml]\n${scrape}`)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs promtool; resolves to what it printed, or rejects with it. */
async function promtool(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: dir })
    return stdout + stderr
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`)
  }
}

const A = { job: 'gaspre', instance: '10.0.0.11:9464' }
const B = { job: 'gaspre', instance: '10.0.0.12:9464' }
const labels = (values: Record<string, string>) =>
  `{${Object.entries(values)
    .map(([name, value]) => `${name}="${value}"`)
    .join(',')}}`
const series = (name: string, values: Record<string, string>, samples: string) => ({
  series: `${name}${labels(values)}`,
  values: samples,
})

/** An alert as promtool expects it: its labels (the rule's `severity` too) and its summary. */
const alert = (exp_labels: Record<string, string>, summary: string) => ({
  exp_labels: { severity: 'page', ...exp_labels },
  exp_annotations: { summary },
})

/** What a rule says at `minutes`: no alert, or these. */
const at = (alertname: string, minutes: number, exp_alerts: unknown[] = []) => ({
  eval_time: `${minutes}m`,
  alertname,
  exp_alerts,
})

/** Runs `promtool test rules` on the documented rules with these unit tests. */
/** promtool's unit tests of the rules (a sample a minute unless a test says otherwise) pass. */
async function rulesPass(name: string, tests: object[]): Promise<void> {
  const file = `${name}.test.json` // JSON is YAML
  const minutely = tests.map((test) => ({ interval: '1m', ...test }))
  await writeFile(
    join(dir, file),
    JSON.stringify({
      rule_files: ['gaspre-rules.yml'],
      evaluation_interval: '1m',
      tests: minutely,
    }),
  )
  expect(await promtool('test', 'rules', file)).toMatch(/SUCCESS/)
}

const channelDown = (channel: string) =>
  alert({ job: 'gaspre', channel }, `Demo requests have not gone out by ${channel} for 10 minutes`)

describe('the documented alert rules', () => {
  it('are valid rules, and a valid configuration with the documented scrape job', async () => {
    expect(await promtool('check', 'rules', 'gaspre-rules.yml')).toMatch(/SUCCESS: 6 rules found/)
    expect(await promtool('check', 'config', 'prometheus.yml')).toMatch(/SUCCESS/)
  })

  it('a channel down: fires once for two servers, 10 minutes after the outage began, whatever a restart did meanwhile', async () => {
    // The webhook fails from 60 s (the store's outage start, the same on both servers); server
    // A restarts between minutes 5 and 7 (stale, then nothing scraped, then back).
    const since = '0 60x15'
    const restarted = '0 60 60 60 60 stale _ 60x8'
    await rulesPass('channel-down', [
      {
        input_series: [
          series('gaspre_channel_failing_since_seconds', { ...A, channel: 'webhook' }, restarted),
          series('gaspre_channel_failing_since_seconds', { ...B, channel: 'webhook' }, since),
          series('gaspre_channel_failing_since_seconds', { ...A, channel: 'email' }, '0x15'),
          series('gaspre_channel_failing_since_seconds', { ...B, channel: 'email' }, '0x15'),
        ],
        alert_rule_test: [
          at('GaspreDeliveryChannelDown', 6),
          at('GaspreDeliveryChannelDown', 11),
          // 11 minutes after 60 s: one alert, without the instance, with no `for:` to restart.
          at('GaspreDeliveryChannelDown', 12, [channelDown('webhook')]),
        ],
      },
    ])
  })

  it('a channel down: a restart while it fires neither resolves it nor restarts its clock; recovery ends it', async () => {
    // One server: the outage from 60 s; a restart at minutes 13 and 14, a crash loop from 17
    // to 20 (up for one scrape in two or three); delivering again from minute 22. (`60x11` is
    // twelve samples.)
    const samples = '0 60x11 stale _ 60 60 stale _ 60 stale 60 0 0'
    await rulesPass('channel-down-restart', [
      {
        input_series: [
          series('gaspre_channel_failing_since_seconds', { ...A, channel: 'email' }, samples),
        ],
        alert_rule_test: [
          at('GaspreDeliveryChannelDown', 12, [channelDown('email')]),
          at('GaspreDeliveryChannelDown', 13, [channelDown('email')]),
          at('GaspreDeliveryChannelDown', 14, [channelDown('email')]),
          at('GaspreDeliveryChannelDown', 18, [channelDown('email')]),
          at('GaspreDeliveryChannelDown', 20, [channelDown('email')]),
          at('GaspreDeliveryChannelDown', 22),
        ],
      },
    ])
  })

  it('a request waiting too long: once for two servers, 10 minutes after it was queued', async () => {
    // Queued at 120 s, a mail retried on 451 for its own reasons: still pending at minute 14.
    const samples = '0 0 120x12 0'
    await rulesPass('waiting', [
      {
        input_series: [
          series(
            'gaspre_delivery_oldest_pending_since_seconds',
            { ...A, channel: 'email' },
            samples,
          ),
          series(
            'gaspre_delivery_oldest_pending_since_seconds',
            { ...B, channel: 'email' },
            samples,
          ),
        ],
        alert_rule_test: [
          at('GaspreDeliveryWaitingTooLong', 12),
          at('GaspreDeliveryWaitingTooLong', 13, [
            alert(
              { job: 'gaspre', channel: 'email' },
              'A demo request has waited 10 minutes for email',
            ),
          ]),
          at('GaspreDeliveryWaitingTooLong', 15),
        ],
      },
    ])
  })

  it('a dead letter and held requests: once for two servers, until a person deals with them', async () => {
    await rulesPass('waiting-for-a-person', [
      {
        input_series: [
          series('gaspre_dead_letters', { ...A, channel: 'email' }, '0 1 1 stale _ 1 0'),
          series('gaspre_dead_letters', { ...B, channel: 'email' }, '0 1 1 1 1 1 0'),
          series('gaspre_dead_letters', { ...A, channel: 'webhook' }, '0x6'),
          series('gaspre_requests_held', A, '0 0 41 41 41 0 0'),
          series('gaspre_requests_held', B, '0 0 41 41 41 0 0'),
        ],
        alert_rule_test: [
          at('GaspreDeadLetter', 0),
          ...[1, 3, 4].map((minute) =>
            at('GaspreDeadLetter', minute, [
              alert(
                { job: 'gaspre', channel: 'email' },
                'A demo request was NOT delivered by email: npm run outbox -- --failed',
              ),
            ]),
          ),
          at('GaspreDeadLetter', 6),
          at('GaspreRequestsHeld', 1),
          at('GaspreRequestsHeld', 2, [
            alert(
              { job: 'gaspre' },
              'Demo requests are held after a flood: npm run outbox -- --held',
            ),
          ]),
          at('GaspreRequestsHeld', 5),
        ],
      },
    ])
  })

  it('the server itself: down for 2 minutes (each one of several), or not scraped at all', async () => {
    await rulesPass('server', [
      {
        input_series: [series('up', A, '1 1 0 0 0 0 1'), series('up', B, '1x6')],
        alert_rule_test: [
          at('GaspreServerDown', 3),
          at('GaspreServerDown', 4, [
            alert(A, `The GASPRE lead server ${A.instance} does not answer Prometheus`),
          ]),
          at('GaspreServerDown', 6),
          at('GaspreServerAbsent', 6),
        ],
      },
      {
        // Prometheus lost every target of the job (its service discovery, a renamed job).
        input_series: [series('up', { job: 'node', instance: 'web-1:9100' }, '1x6')],
        alert_rule_test: [
          at('GaspreServerAbsent', 4),
          at('GaspreServerAbsent', 5, [
            alert({ job: 'gaspre' }, 'Prometheus scrapes no GASPRE lead server at all'),
          ]),
        ],
      },
    ])
  })
})
