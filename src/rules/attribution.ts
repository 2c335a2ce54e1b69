import type { KeyValueStore } from './key-value-store'
import {
  CAMPAIGN_KEYS,
  MAX_ATTRIBUTION_VALUE,
  MAX_FIRST_VISIT_AT,
  MAX_LANDING_PAGE,
  type CampaignKey,
} from '../contract/attribution'

type Attribution = {
  readonly campaign: Partial<Record<CampaignKey, string>>
  /** Host of the referring site, only when it is another site. */
  readonly referrer: string | null
  readonly landingPage: string
  readonly firstSeenAt: string
}

const ATTRIBUTION_KEY = 'gaspre:first-touch'
const DIRECT = 'directo'

/**
 * Trimmed, single-line, bounded: these values come from anyone's link. (The server also makes
 * any other invisible character a space: the page ships no more code for that rare case.)
 * @internal its tests use it too
 */
export function cleanValue(value: string, max = MAX_ATTRIBUTION_VALUE): string {
  return (
    value
      // Control characters have no place in a single-line value.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, max)
  )
}

/** @internal its tests use it too */
export function readAttribution(url: URL, referrer: string, now: Date): Attribution {
  const campaign: Partial<Record<CampaignKey, string>> = {}
  for (const key of CAMPAIGN_KEYS) {
    const value = cleanValue(url.searchParams.get(key) ?? '')
    if (value !== '') campaign[key] = value
  }
  return {
    campaign,
    referrer: externalHost(referrer, url.host),
    landingPage: cleanValue(url.pathname, MAX_LANDING_PAGE),
    firstSeenAt: now.toISOString(),
  }
}

function externalHost(referrer: string, ownHost: string): string | null {
  try {
    const { host, protocol } = new URL(referrer)
    if (!protocol.startsWith('http') || host === ownHost) return null
    return cleanValue(host)
  } catch {
    return null
  }
}

function isAttribution(value: unknown): value is Attribution {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Record<string, unknown>
  return (
    typeof candidate.campaign === 'object' &&
    candidate.campaign !== null &&
    typeof candidate.landingPage === 'string' &&
    typeof candidate.firstSeenAt === 'string' &&
    (candidate.referrer === null || typeof candidate.referrer === 'string')
  )
}

/** Stores the first page view's attribution for the visit; later views keep the first one. */
export function captureFirstTouch(
  storage: KeyValueStore,
  url: URL,
  referrer: string,
  now = new Date(),
): Attribution {
  const stored = storage.get(ATTRIBUTION_KEY)
  if (stored !== null) {
    try {
      const parsed: unknown = JSON.parse(stored)
      if (isAttribution(parsed)) return parsed
    } catch {
      // A damaged entry is replaced by this view's attribution.
    }
  }
  const attribution = readAttribution(url, referrer, now)
  storage.set(ATTRIBUTION_KEY, JSON.stringify(attribution))
  return attribution
}

/**
 * One readable line for the sales inbox: 'whatsapp / mensaje / otono', 'directo'…
 * @internal its tests use it too
 */
export function trafficSource({ campaign, referrer }: Attribution): string {
  const parts = [campaign.utm_source, campaign.utm_medium, campaign.utm_campaign].filter(Boolean)
  if (parts.length > 0) return parts.join(' / ')
  if (campaign.gclid) return 'Google Ads'
  if (campaign.fbclid) return 'Meta Ads'
  if (referrer) return `referencia: ${referrer}`
  return DIRECT
}

/** Extra template parameters sent with a demo request; empty values are left out. */
export function attributionParams(
  attribution: Attribution,
): { traffic_source: string } & Record<string, string> {
  const params: { traffic_source: string } & Record<string, string> = {
    traffic_source: trafficSource(attribution),
  }
  for (const key of CAMPAIGN_KEYS) {
    const value = attribution.campaign[key]
    if (value) params[key] = cleanValue(value)
  }
  if (attribution.referrer) params.referrer = cleanValue(attribution.referrer)
  params.landing_page = cleanValue(attribution.landingPage, MAX_LANDING_PAGE)
  params.first_visit_at = cleanValue(attribution.firstSeenAt, MAX_FIRST_VISIT_AT)
  return params
}
