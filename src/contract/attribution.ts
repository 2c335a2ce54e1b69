// Where a visit came from, as the page sends it beside the demo request and the server accepts
// it. Kept apart from the form's fields: the page reads it on every visit, the form only later.
// The page only cleans control characters out of these; the server makes them safe to store.

/** Campaign parameters kept from the first page of a visit (first touch). */
export const CAMPAIGN_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const
export type CampaignKey = (typeof CAMPAIGN_KEYS)[number]

/** The longest campaign value, referring host, landing page and first-visit time kept. */
export const MAX_ATTRIBUTION_VALUE = 200
export const MAX_LANDING_PAGE = 300
export const MAX_FIRST_VISIT_AT = 40

/** Every attribution parameter, with the longest value each may hold. */
export const ATTRIBUTION_MAX_LENGTH = {
  traffic_source: 3 * MAX_ATTRIBUTION_VALUE + 20,
  utm_source: MAX_ATTRIBUTION_VALUE,
  utm_medium: MAX_ATTRIBUTION_VALUE,
  utm_campaign: MAX_ATTRIBUTION_VALUE,
  utm_term: MAX_ATTRIBUTION_VALUE,
  utm_content: MAX_ATTRIBUTION_VALUE,
  gclid: MAX_ATTRIBUTION_VALUE,
  fbclid: MAX_ATTRIBUTION_VALUE,
  referrer: MAX_ATTRIBUTION_VALUE,
  landing_page: MAX_LANDING_PAGE,
  first_visit_at: MAX_FIRST_VISIT_AT,
} as const satisfies Record<CampaignKey, number> & Record<string, number>
export type AttributionParam = keyof typeof ATTRIBUTION_MAX_LENGTH
