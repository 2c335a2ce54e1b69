import { describe, expect, it } from 'vitest'
import { DEFAULT_API_ORIGIN, parseMailConfig } from './build-config'

describe('parseMailConfig', () => {
  it('runs in local mode with no configuration', () => {
    expect(parseMailConfig({})).toMatchObject({
      mode: 'local',
      apiOrigin: null,
      blockHeadless: false,
    })
  })

  it('uses the configured service and the default origin', () => {
    const config = parseMailConfig({
      VITE_EMAILJS_PUBLIC_KEY: ' key ',
      VITE_EMAILJS_SERVICE_ID: 'svc',
      VITE_EMAILJS_TEMPLATE_ID: 'tpl',
    })
    expect(config).toMatchObject({
      mode: 'service',
      publicKey: 'key',
      serviceId: 'svc',
      templateId: 'tpl',
      apiOrigin: DEFAULT_API_ORIGIN,
    })
  })

  it('reduces a custom API address to its origin and reads the headless switch', () => {
    const config = parseMailConfig({
      VITE_EMAILJS_PUBLIC_KEY: 'key',
      VITE_EMAILJS_SERVICE_ID: 'svc',
      VITE_EMAILJS_TEMPLATE_ID: 'tpl',
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
