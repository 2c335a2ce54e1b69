// The header policy, checked against the MDN HTTP Observatory's scoring rules so a change that
// would cost the A+ fails here rather than in production.
import { describe, expect, it } from 'vitest'
import {
  IMMUTABLE_CACHE,
  REVALIDATE_CACHE,
  cacheControlFor,
  contentSecurityPolicy,
  securityHeaders,
} from './security-headers.js'
import type { SiteBuild } from './site-build.js'
import { OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'

const EMAIL_SERVICE_BUILD: SiteBuild = {
  ...OWN_SERVER_BUILD,
  mode: 'email-service',
  apiOrigin: 'https://api.emailjs.com',
  styleHashes: ["'sha256-abc+/def='"],
  scriptOrigins: ['https://www.googletagmanager.com'],
  connectOrigins: ['https://region1.google-analytics.com'],
}

const directives = (csp: string): Map<string, string[]> =>
  new Map(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/)
      return [name, values]
    }),
  )

describe('Content-Security-Policy', () => {
  it('is the strict policy, in own-server mode allowing only its own origin to be posted to', () => {
    expect(contentSecurityPolicy(OWN_SERVER_BUILD)).toBe(
      "default-src 'self'; script-src 'self' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; " +
        "style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
        "frame-src https://www.youtube-nocookie.com; media-src 'self'; object-src 'none'; " +
        "base-uri 'self'; form-action 'self'; frame-ancestors 'none'; manifest-src 'self'",
    )
  })

  it('adds the API origin, hashes and extra origins of a service build', () => {
    const csp = directives(contentSecurityPolicy(EMAIL_SERVICE_BUILD))
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'https://api.emailjs.com',
      'https://region1.google-analytics.com',
    ])
    expect(csp.get('script-src')).toContain('https://www.googletagmanager.com')
    expect(csp.get('style-src')).toEqual(["'self'", "'sha256-abc+/def='"])
  })

  it('keeps frame-src valid with no frame origins', () => {
    const csp = directives(contentSecurityPolicy({ ...OWN_SERVER_BUILD, frameOrigins: [] }))
    expect(csp.get('frame-src')).toEqual(["'none'"])
  })
})

describe('MDN HTTP Observatory rules (A+ with no penalty)', () => {
  for (const [mode, build] of [
    ['own-server', OWN_SERVER_BUILD],
    ['email-service', EMAIL_SERVICE_BUILD],
  ] as const) {
    it(`${mode} build: every scored header passes`, () => {
      const headers = securityHeaders(build)
      const csp = directives(headers['content-security-policy'] ?? '')
      // CSP: no unsafe sources, no insecure schemes or wildcards; object-src and
      // default-src locked; clickjacking prevented with frame-ancestors.
      for (const [name, values] of csp) {
        expect(values, name).not.toContain("'unsafe-inline'")
        expect(values, name).not.toContain("'unsafe-eval'")
        expect(
          values.some((value) => /^(http:|\*|https:$|data:$)/.test(value) && name !== 'img-src'),
          name,
        ).toBe(false)
      }
      expect(csp.get('default-src')).toEqual(["'self'"])
      expect(csp.get('object-src')).toEqual(["'none'"])
      expect(csp.get('base-uri')).toEqual(["'self'"])
      // The form posts itself to the sending API when no script runs.
      expect(csp.get('form-action')).toEqual(["'self'", build.apiOrigin].filter(Boolean))
      expect(csp.get('frame-ancestors')).toEqual(["'none'"])
      // HSTS at least six months.
      const maxAge = Number(/max-age=(\d+)/.exec(headers['strict-transport-security'] ?? '')?.[1])
      expect(maxAge).toBeGreaterThanOrEqual(15_768_000)
      expect(headers['x-content-type-options']).toBe('nosniff')
      expect(headers['x-frame-options']).toBe('DENY')
      expect([
        'no-referrer',
        'same-origin',
        'strict-origin',
        'strict-origin-when-cross-origin',
      ]).toContain(headers['referrer-policy'])
      expect(headers['cross-origin-resource-policy']).toBe('same-origin')
      expect(headers['cross-origin-opener-policy']).toBe('same-origin')
      expect(Object.keys(headers)).not.toContain('x-powered-by')
    })
  }
})

describe('Permissions-Policy', () => {
  const policy = securityHeaders(OWN_SERVER_BUILD)['permissions-policy'] ?? ''
  const features = new Map(policy.split(', ').map((entry) => entry.split('=') as [string, string]))

  it('denies powerful features', () => {
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial']) {
      expect(features.get(feature), feature).toBe('()')
    }
  })

  it('allows what the video frame needs, for this page and youtube-nocookie only', () => {
    for (const feature of ['autoplay', 'fullscreen', 'picture-in-picture', 'encrypted-media']) {
      expect(features.get(feature), feature).toBe('(self "https://www.youtube-nocookie.com")')
    }
  })
})

describe('Cache-Control', () => {
  it('is immutable for hashed assets only', () => {
    expect(cacheControlFor('/assets/app-abc123.js')).toBe(IMMUTABLE_CACHE)
    expect(cacheControlFor('/index.html')).toBe(REVALIDATE_CACHE)
    expect(cacheControlFor('/og-image.png')).toBe(REVALIDATE_CACHE)
    expect(cacheControlFor('/tyc.html')).toBe(REVALIDATE_CACHE)
  })
})
