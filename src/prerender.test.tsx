import { describe, expect, it } from 'vitest'
import { describeBuild } from './prerender'

describe('describeBuild (what the servers learn about a build)', () => {
  it('in own-server mode lets the page reach only its own origin and no third party', () => {
    const build = describeBuild({}, ['body{}'])
    expect(build).toMatchObject({
      mode: 'own-server',
      apiOrigin: null,
      scriptOrigins: [],
      connectOrigins: [],
    })
    // The video facade's style and the inline site CSS.
    expect(build.styleHashes).toHaveLength(2)
    for (const hash of build.styleHashes) expect(hash).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/)
  })

  it('allows the configured sending API and tag manager, and nothing else', () => {
    const build = describeBuild(
      {
        VITE_EMAILJS_PUBLIC_KEY: 'key',
        VITE_EMAILJS_SERVICE_ID: 'svc',
        VITE_EMAILJS_TEMPLATE_ID: 'tpl',
        VITE_GTM_ID: 'GTM-ABC1234',
      },
      [],
    )
    expect(build.apiOrigin).toBe('https://api.emailjs.com')
    expect(build.scriptOrigins).toEqual(['https://www.googletagmanager.com'])
    expect(build.connectOrigins.every((origin) => origin.includes('google-analytics.com'))).toBe(
      true,
    )
  })
})
