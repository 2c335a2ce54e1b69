// The server's configuration: one schema, read once, with errors that say what a variable takes,
// and the table in docs/production.md kept true to it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError, SETTINGS, readConfig } from './config.js'
import { DEFAULT_LIMITS } from './limits.js'
import { expectedRows, guideTable } from '../testing/guide-table.js'
import { REPO_ROOT } from '../testing/site.js'

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
    expect(DEFAULT_LIMITS).toEqual({
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
    const refusal = (env: Record<string, string>) => {
      try {
        readConfig(env, '/')
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError)
        return (error as Error).message
      }
      return 'accepted'
    }
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
    const files = [
      'main.ts',
      'app.ts',
      'email-stand-in.ts',
      'outbox.ts',
      'limits.ts',
      'data-dir.ts',
    ]
    const readers = files.flatMap((file) =>
      readFileSync(`${REPO_ROOT}server/${file}`, 'utf8')
        .split('\n')
        .filter((line) => line.includes('process.env') && !line.includes('readConfig(process.env,'))
        .map((line) => `${file}: ${line.trim()}`),
    )
    expect(readers).toEqual([])
  })
})
