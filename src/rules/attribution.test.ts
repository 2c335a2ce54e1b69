import { describe, expect, it } from 'vitest'
import { safeStorage } from '../browser/storage'
import {
  attributionParams,
  captureFirstTouch,
  cleanValue,
  readAttribution,
  trafficSource,
} from './attribution'

const storage = safeStorage(() => sessionStorage)
const at = new Date('2026-10-05T15:00:00.000Z')
const page = (query: string, path = '/') => new URL(`https://gaspre.mx${path}${query}`)

describe('first-touch attribution', () => {
  it('keeps the campaign parameters of the landing URL', () => {
    const attribution = readAttribution(
      page('?utm_source=whatsapp&utm_medium=mensaje&utm_campaign=otono&gclid=abc&other=x'),
      '',
      at,
    )
    expect(attribution).toEqual({
      campaign: {
        utm_source: 'whatsapp',
        utm_medium: 'mensaje',
        utm_campaign: 'otono',
        gclid: 'abc',
      },
      referrer: null,
      landingPage: '/',
      firstSeenAt: '2026-10-05T15:00:00.000Z',
    })
  })

  it('keeps only another site as the referrer, and only its host', () => {
    expect(readAttribution(page(''), 'https://www.google.com/search?q=precios', at).referrer).toBe(
      'www.google.com',
    )
    expect(readAttribution(page(''), 'https://gaspre.mx/tyc', at).referrer).toBeNull()
    expect(readAttribution(page(''), 'not a url', at).referrer).toBeNull()
  })

  it('does not let later views of the visit overwrite the first one', () => {
    const first = captureFirstTouch(
      storage,
      page('?utm_source=whatsapp&utm_campaign=otono'),
      '',
      at,
    )
    const later = captureFirstTouch(storage, page('?utm_source=email', '/tyc'), '', new Date())
    expect(later).toEqual(first)
  })

  it('trims, flattens and bounds hostile values', () => {
    const attribution = readAttribution(
      page(
        `?utm_source=${encodeURIComponent('  <b>x</b>\n\r\tevil  ')}&utm_term=${'a'.repeat(500)}`,
      ),
      '',
      at,
    )
    expect(attribution.campaign.utm_source).toBe('<b>x</b> evil')
    expect(attribution.campaign.utm_term).toHaveLength(200)
    expect(cleanValue('\u0000\u0007 ok ')).toBe('ok')
  })

  it("says 'directo' for a visit with no campaign and sends no empty fields", () => {
    const params = attributionParams(readAttribution(page(''), '', at))
    expect(params).toEqual({
      traffic_source: 'directo',
      landing_page: '/',
      first_visit_at: '2026-10-05T15:00:00.000Z',
    })
  })

  it('summarises the source for the sales inbox', () => {
    const summary = (query: string, referrer = '') =>
      trafficSource(readAttribution(page(query), referrer, at))
    expect(summary('?utm_source=whatsapp&utm_campaign=otono')).toBe('whatsapp / otono')
    expect(summary('?gclid=1')).toBe('Google Ads')
    expect(summary('?fbclid=1')).toBe('Meta Ads')
    expect(summary('', 'https://bing.com/')).toBe('referencia: bing.com')
  })
})
