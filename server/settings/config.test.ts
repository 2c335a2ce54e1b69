// The server's configuration: one schema, read once, with errors that say what a variable takes,
// and the table in docs/production.md kept true to it.
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError, SETTINGS, readConfig } from './config.js'
import { expectedRows, guideTable } from '../../testing/guide-table.js'
import { REPO_ROOT } from '../../testing/site.js'

/** The one line an operator reads when readConfig refuses `env`; 'accepted' when it does not. */
function refusal(env: Record<string, string>): string {
  try {
    readConfig(env, '/')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  return 'accepted'
}

describe('the runtime configuration', () => {
  it('docs/production.md lists every variable the server reads, with its meaning and default', () => {
    expect(
      guideTable('docs/production.md', '## Configuration (run time)', '## The server'),
    ).toEqual(expectedRows(SETTINGS))
  })

  it('the defaults apply when a variable is unset or blank', () => {
    const config = readConfig({ PORT: '', LOG_LEVEL: '  ' }, '/srv/gaspre')
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      distDir: '/srv/gaspre/dist',
      dataDir: '/srv/gaspre/.data',
      logLevel: 'info',
      shutdownGraceMs: 25_000,
      trustProxy: false,
    })
    expect(config).toMatchObject({
      rateLimitPerMinute: 10,
      totalLimitPerMinute: 60,
      heldLimit: 1000,
      maxConnections: 1024,
      maxConnectionsPerClient: 64,
      outboxMaxBytes: 1024 ** 3,
    })
  })

  it('reads each kind of value', () => {
    expect(
      readConfig(
        {
          PORT: '0',
          DATA_DIR: '/var/lib/gaspre',
          SHUTDOWN_GRACE_MS: '70000',
          MAX_CONNECTIONS: ' 64 ',
          TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::/32',
        },
        '/srv',
      ),
    ).toMatchObject({
      port: 0,
      dataDir: '/var/lib/gaspre',
      shutdownGraceMs: 70_000,
      maxConnections: 64,
      trustProxy: ['loopback', '10.0.0.0/8', '2001:db8::/32'],
    })
    expect(readConfig({ TRUST_PROXY: '2' }, '/').trustProxy).toBe(2)
  })

  it('a wrong value names the variable and the values it takes', () => {
    expect(refusal({ PORT: '70000' })).toBe(
      'PORT must be a port number from 0 to 65535, not "70000"',
    )
    expect(refusal({ SHUTDOWN_GRACE_MS: '-1' })).toBe(
      'SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 600000, not "-1"',
    )
    for (const bad of ['0', '-1', '1.5', '10k', 'diez']) {
      expect(refusal({ MAX_CONNECTIONS: bad })).toBe(
        `MAX_CONNECTIONS must be a whole number from 1 to 1000000, not "${bad}"`,
      )
    }
    expect(refusal({ LOG_LEVEL: 'loud' })).toBe(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"',
    )
    for (const bad of ['nginx', '10.0.0.0/33', '127.0.0.1,', '1.2.3.4/8/8']) {
      expect(refusal({ TRUST_PROXY: bad })).toBe(
        `TRUST_PROXY must be addresses or CIDRs separated by commas, or a whole number of proxies, not "${bad}"`,
      )
    }
  })

  it('nothing else in the server reads the environment', () => {
    // Every module of the server but this one; npm's own lifecycle variable tells the CLI only
    // whether npm printed its banner.
    const files = readdirSync(`${REPO_ROOT}server`, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'settings/config.ts',
    )
    expect(files).toContain('start-server.ts')
    const readers = files.flatMap((file) =>
      readFileSync(`${REPO_ROOT}server/${file}`, 'utf8')
        .split('\n')
        .filter(
          (line) =>
            line.includes('process.env') &&
            !line.includes('readConfig(process.env,') &&
            !line.includes('process.env.npm_lifecycle_event'),
        )
        .map((line) => `${file}: ${line.trim()}`),
    )
    expect(readers).toEqual([])
  })
})

describe('the WhatsApp settings', () => {
  const WHATSAPP = {
    WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    WHATSAPP_TOKEN: 'EAAGm0PX4ZCpsBA',
    WHATSAPP_TEMPLATE: 'solicitud_demo_nueva',
    LEADS_WHATSAPP_ROUTES: '+52=+5215511111111, +5215522222222; +34=+34600111222; *=+5215533333333',
    WHATSAPP_VERIFY_TOKEN: 'verifica-gaspre',
    WHATSAPP_APP_SECRET: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  }
  it('reads the routes, the hours and the defaults: Graph API v23.0, es_MX, 15 minutes', () => {
    const { delivery } = readConfig(WHATSAPP, '/')
    expect(delivery.whatsapp).toMatchObject({
      apiUrl: 'https://graph.facebook.com/v23.0',
      language: 'es_MX',
      escalateAfterMinutes: 15,
    })
    expect(delivery.whatsapp!.routes.territories).toEqual(
      new Map([
        ['52', ['+5215511111111', '+5215522222222']],
        ['34', ['+34600111222']],
      ]),
    )
    expect(delivery.whatsapp!.routes.fallback).toEqual(['+5215533333333'])
    expect(delivery.whatsapp!.workingHours[1]).toEqual([[540, 1140]])
    expect(delivery.phoneRegions).toEqual(['MX', 'ES'])
    expect(readConfig({}, '/').delivery.whatsapp).toBeUndefined()
  })

  it('a wrong route, a template without a token or bad hours stop the start, naming the variable', () => {
    const withoutToken = Object.fromEntries(
      Object.entries(WHATSAPP).filter(([name]) => name !== 'WHATSAPP_TOKEN'),
    )
    expect(refusal(withoutToken)).toBe(
      'WHATSAPP_TOKEN must be set when WHATSAPP_PHONE_NUMBER_ID is: the Cloud API refuses every message without it',
    )
    expect(refusal({ WHATSAPP_TEMPLATE: 'solicitud_demo_nueva' })).toMatch(
      /^WHATSAPP_PHONE_NUMBER_ID must be set when WHATSAPP_TEMPLATE is/,
    )
    expect(refusal({ ...WHATSAPP, LEADS_WHATSAPP_ROUTES: '+52=5511111111;*=+5215533333333' })).toBe(
      'LEADS_WHATSAPP_ROUTES "5511111111" (for +52) is not a phone number with its country code, such as +5215511111111',
    )
    expect(refusal({ ...WHATSAPP, LEADS_WHATSAPP_ROUTES: '+52=+5215511111111' })).toMatch(
      /^LEADS_WHATSAPP_ROUTES has no default \(\*=\+521…\)/,
    )
    expect(
      refusal({ ...WHATSAPP, LEADS_WHATSAPP_ROUTES: '+999=+5215511111111;*=+5215533333333' }),
    ).toMatch(/^LEADS_WHATSAPP_ROUTES "\+999" is not a country calling code/)
    expect(refusal({ ...WHATSAPP, LEADS_WHATSAPP_ROUTES: '+52=+52123;*=+5215533333333' })).toMatch(
      /"\+52123" \(for \+52\) is not a phone number/,
    )
    expect(refusal({ LEADS_WORKING_HOURS: 'lunes a viernes de 9 a 7' })).toBe(
      'LEADS_WORKING_HOURS must be days and hours such as lun-vie 09:00-19:00; sáb 10:00-14:00, not "lunes a viernes de 9 a 7"',
    )
    expect(refusal({ ...WHATSAPP, LEADS_ESCALATE_AFTER_MINUTES: '0' })).toMatch(
      /^LEADS_ESCALATE_AFTER_MINUTES must be a whole number of minutes from 1 to 10080/,
    )
    expect(refusal({ ...WHATSAPP, WHATSAPP_TEMPLATE: 'Solicitud Demo' })).toMatch(
      /^WHATSAPP_TEMPLATE must be a template name/,
    )
  })
})
