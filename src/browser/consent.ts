import type { KeyValueStore } from '../rules/key-value-store'

/**
 * The visitor's choice about third-party tags, kept in their own browser (never in a cookie)
 * for six months, and Google Consent Mode v2 signals derived from it. Only builds with a tag
 * manager configured include this module (see start-page.ts).
 */
export type ConsentChoice = 'granted' | 'denied'

/** @internal its tests use it too */
export const CONSENT_KEY = 'gaspre:consent'
const CONSENT_MONTHS = 6

/** The four Consent Mode v2 signals; every one follows the visitor's single choice. */
const CONSENT_SIGNALS = [
  'ad_storage',
  'ad_user_data',
  'ad_personalization',
  'analytics_storage',
] as const

type ConsentSignals = Record<(typeof CONSENT_SIGNALS)[number], ConsentChoice>

export const consentSignals = (choice: ConsentChoice): ConsentSignals =>
  Object.fromEntries(CONSENT_SIGNALS.map((signal) => [signal, choice])) as ConsentSignals

const expiresAt = (savedAt: number) => {
  const date = new Date(savedAt)
  date.setMonth(date.getMonth() + CONSENT_MONTHS)
  return date.getTime()
}

/** The stored choice, or null when there is none, it is damaged or six months have passed. */
export function readConsent(storage: KeyValueStore, now = Date.now()): ConsentChoice | null {
  let stored: unknown
  try {
    stored = JSON.parse(storage.get(CONSENT_KEY) ?? 'null')
  } catch {
    stored = null
  }
  if (typeof stored === 'object' && stored !== null) {
    const { choice, savedAt } = stored as { choice?: unknown; savedAt?: unknown }
    const valid =
      (choice === 'granted' || choice === 'denied') &&
      typeof savedAt === 'number' &&
      savedAt <= now &&
      now < expiresAt(savedAt)
    if (valid) return choice
  }
  storage.remove(CONSENT_KEY)
  return null
}

export function saveConsent(storage: KeyValueStore, choice: ConsentChoice, now = Date.now()): void {
  storage.set(CONSENT_KEY, JSON.stringify({ choice, savedAt: now }))
}

/**
 * Google's gtag() for consent commands. The tag manager reads them from the data layer only as
 * `arguments` objects, not as arrays, so the parameters are typed here and pushed as they came.
 */
export function gtag(
  /* eslint-disable @typescript-eslint/no-unused-vars -- read through `arguments` */
  command: 'consent',
  action: 'default' | 'update',
  signals: ConsentSignals,
  /* eslint-enable @typescript-eslint/no-unused-vars */
): void {
  window.dataLayer ??= []
  // eslint-disable-next-line prefer-rest-params -- see above: an array would be ignored
  window.dataLayer.push(arguments)
}

/**
 * Cookies a Google tag sets on our own domain (_ga, _ga_<id>, _gid, _gat…, _gcl_…). Deleted
 * when the visitor withdraws consent, for the host and each parent domain it may be set on.
 */
const TAG_COOKIE = /^(_ga|_gid|_gat|_gcl_)/

export function deleteTagCookies(doc: Document = document): void {
  const labels = doc.location.hostname.split('.')
  const domains = labels.map((_, index) => labels.slice(index).join('.')).slice(0, -1)
  for (const cookie of doc.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim() ?? ''
    if (!TAG_COOKIE.test(name)) continue
    const expired = `${name}=; Max-Age=0; Path=/`
    doc.cookie = expired
    for (const domain of domains) doc.cookie = `${expired}; Domain=${domain}`
  }
}
