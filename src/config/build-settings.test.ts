import { describe, expect, it } from 'vitest'
import { DEFAULT_API_ORIGIN } from './mail-config'
import { expectedRows, guideTable } from '../../testing/guide-table'
import { BUILD_SETTINGS, checkBuildSettings, parseMailConfig } from './build-settings'

describe('the build-time configuration', () => {
  it('docs/deploying.md lists every variable the build reads, with its meaning and default', () => {
    expect(
      guideTable(
        'docs/deploying.md',
        '## Configuration (build time)',
        '## Deploying the static build',
      ),
    ).toEqual(expectedRows(BUILD_SETTINGS))
  })

  it('a wrong value names the variable and the values it takes', () => {
    expect(() => checkBuildSettings({ VITE_DEMO_SEND_TIMEOUT_SECONDS: '0' })).toThrow(
      'VITE_DEMO_SEND_TIMEOUT_SECONDS must be a number of seconds from 1 to 120, not "0"',
    )
    expect(() => checkBuildSettings({ SITE_URL: 'gaspre.mx' })).toThrow(
      'SITE_URL must be an absolute http(s) address such as https://gaspre.mx, not "gaspre.mx"',
    )
    expect(() => checkBuildSettings({ VITE_GTM_ID: 'UA-1234' })).toThrow(
      'VITE_GTM_ID must be a container id such as GTM-AB12CD3, not "UA-1234"',
    )
    expect(() => checkBuildSettings({ BUILD_SERVER: 'skip' })).toThrow(
      'BUILD_SERVER must be compile or reuse, not "skip"',
    )
    expect(() => checkBuildSettings({})).not.toThrow()
  })
})

/** The three values that configure the e-mail service. */
const SERVICE = {
  VITE_EMAILJS_PUBLIC_KEY: 'key',
  VITE_EMAILJS_SERVICE_ID: 'svc',
  VITE_EMAILJS_TEMPLATE_ID: 'tpl',
}

describe('parseMailConfig', () => {
  it('runs in own-server mode with no configuration', () => {
    expect(parseMailConfig({})).toMatchObject({
      mode: 'own-server',
      apiOrigin: null,
      blockHeadless: false,
    })
  })

  it('uses the configured service and the default origin', () => {
    // The public key as pasted, with spaces around it.
    const config = parseMailConfig({ ...SERVICE, VITE_EMAILJS_PUBLIC_KEY: ' key ' })
    expect(config).toMatchObject({
      mode: 'email-service',
      publicKey: 'key',
      serviceId: 'svc',
      templateId: 'tpl',
      apiOrigin: DEFAULT_API_ORIGIN,
    })
  })

  it('reduces a custom API address to its origin and reads the headless switch', () => {
    const config = parseMailConfig({
      ...SERVICE,
      VITE_EMAILJS_API_ORIGIN: 'http://127.0.0.1:4010/',
      VITE_EMAILJS_BLOCK_HEADLESS: 'true',
    })
    expect(config.apiOrigin).toBe('http://127.0.0.1:4010')
    expect(config.blockHeadless).toBe(true)
  })

  it('refuses a half-configured service instead of shipping a form that cannot send', () => {
    expect(() => parseMailConfig({ VITE_EMAILJS_PUBLIC_KEY: 'key' })).toThrow(
      /VITE_EMAILJS_SERVICE_ID and VITE_EMAILJS_TEMPLATE_ID are not/,
    )
    expect(() =>
      parseMailConfig({
        VITE_EMAILJS_PUBLIC_KEY: 'k',
        VITE_EMAILJS_SERVICE_ID: 's',
        VITE_EMAILJS_TEMPLATE_ID: 't',
        VITE_EMAILJS_BLOCK_HEADLESS: 'yes',
      }),
    ).toThrow(/true or false/)
  })
})
