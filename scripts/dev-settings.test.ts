import { describe, expect, it } from 'vitest'
import { readConfig } from '../server/settings/config.ts'
import { readDevSettings } from './dev-settings.ts'

const root = '/srv/gaspre'

describe('npm run dev’s settings', () => {
  it('puts DATA_DIR where the server and npm run outbox look for it', () => {
    for (const DATA_DIR of [undefined, '', '  ', 'leads', './.data', '/var/lib/gaspre']) {
      const env = { DATA_DIR }
      expect(readDevSettings(env, root).dataDir, String(DATA_DIR)).toBe(
        readConfig(env, root).dataDir,
      )
    }
    expect(readDevSettings({ DATA_DIR: 'leads' }, root).dataDir).toBe('/srv/gaspre/leads')
  })

  it('takes its own defaults: port 5173, the editor proxy on 8081', () => {
    expect(readDevSettings({}, root)).toMatchObject({
      port: 5173,
      host: '127.0.0.1',
      proxyPort: 8081,
    })
    expect(readDevSettings({ CMS_PROXY_PORT: '0' }, root)).toMatchObject({ proxyPort: 0 })
  })

  it('refuses a wrong value in one line that names the variable', () => {
    expect(() => readDevSettings({ PORT: 'http' }, root)).toThrow(
      'PORT must be a port number from 0 to 65535, not "http"',
    )
    expect(() => readDevSettings({ CMS_PROXY_PORT: '70000' }, root)).toThrow(/^CMS_PROXY_PORT /)
  })
})
