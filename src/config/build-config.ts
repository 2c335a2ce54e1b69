/**
 * The one place that reads build-time configuration. `parseMailConfig` is pure so the build
 * (vite.config.ts) can reject a half-configured service before anything ships.
 */
import { DEFAULT_SITE_URL } from './site.ts'
import { SEND_FORM_PATH } from '../contract/demo-request.ts'

export type MailMode = 'local' | 'service'

export type MailConfig = {
  readonly mode: MailMode
  readonly publicKey: string
  readonly serviceId: string
  readonly templateId: string
  /** Origin of the sending API; `null` means the page's own origin (the local stand-in). */
  readonly apiOrigin: string | null
  readonly blockHeadless: boolean
  /** Minimum time between two successful sends from one browser. */
  readonly rateLimitMs: number
  /** How long to wait for the sending API before giving up. */
  readonly sendTimeoutMs: number
}

export type Env = Readonly<Record<string, string | undefined>>

export const DEFAULT_API_ORIGIN = 'https://api.emailjs.com'
export const LOCAL_IDS = {
  publicKey: 'local-public-key',
  serviceId: 'local_service',
  templateId: 'local_template',
} as const

const clean = (value: string | undefined) => value?.trim() ?? ''

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  const text = clean(value).toLowerCase()
  if (text === '') return fallback
  if (text === 'true' || text === '1') return true
  if (text === 'false' || text === '0') return false
  throw new Error(`${name} must be true or false, got "${value}"`)
}

function parseSeconds(name: string, value: string | undefined, fallback: number): number {
  const text = clean(value)
  if (text === '') return fallback * 1000
  const seconds = Number(text)
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`${name} must be a number of seconds, got "${value}"`)
  }
  return seconds * 1000
}

function parseOrigin(value: string | undefined): string {
  const text = clean(value) || DEFAULT_API_ORIGIN
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`VITE_EMAILJS_API_ORIGIN must be an absolute URL, got "${value}"`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`VITE_EMAILJS_API_ORIGIN must be http(s), got "${value}"`)
  }
  return url.origin
}

export function parseMailConfig(env: Env): MailConfig {
  const publicKey = clean(env.VITE_EMAILJS_PUBLIC_KEY)
  const shared = {
    // Off by default: a real visitor is never headless, and refusing automated browsers
    // would also refuse the uptime checks and tests that prove the form works.
    blockHeadless: parseBoolean(
      'VITE_EMAILJS_BLOCK_HEADLESS',
      env.VITE_EMAILJS_BLOCK_HEADLESS,
      false,
    ),
    rateLimitMs: parseSeconds('VITE_DEMO_RATE_LIMIT_SECONDS', env.VITE_DEMO_RATE_LIMIT_SECONDS, 60),
    sendTimeoutMs: parseSeconds(
      'VITE_DEMO_SEND_TIMEOUT_SECONDS',
      env.VITE_DEMO_SEND_TIMEOUT_SECONDS,
      15,
    ),
  }
  if (publicKey === '') {
    return { mode: 'local', ...LOCAL_IDS, apiOrigin: null, ...shared }
  }
  const serviceId = clean(env.VITE_EMAILJS_SERVICE_ID)
  const templateId = clean(env.VITE_EMAILJS_TEMPLATE_ID)
  const missing = [
    serviceId === '' && 'VITE_EMAILJS_SERVICE_ID',
    templateId === '' && 'VITE_EMAILJS_TEMPLATE_ID',
  ].filter(Boolean)
  if (missing.length > 0) {
    throw new Error(
      `VITE_EMAILJS_PUBLIC_KEY is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not: set all three, or none for local mode`,
    )
  }
  return {
    mode: 'service',
    publicKey,
    serviceId,
    templateId,
    apiOrigin: parseOrigin(env.VITE_EMAILJS_API_ORIGIN),
    ...shared,
  }
}

export const nativeFormAction = (config: MailConfig): string =>
  `${config.apiOrigin ?? ''}${SEND_FORM_PATH}`

/** The fields the form endpoint reads to route a natively posted form, by name. */
export const nativeFormControls = (config: MailConfig): Readonly<Record<string, string>> => ({
  service_id: config.serviceId,
  template_id: config.templateId,
  user_id: config.publicKey,
})

/** Public address of the site, for canonical URLs, the sitemap and link previews. */
export function parseSiteUrl(env: Env): string {
  const text = clean(env.SITE_URL) || DEFAULT_SITE_URL
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`SITE_URL must be an absolute URL, got "${env.SITE_URL}"`)
  }
  return url.origin
}

/** A Google Tag Manager container id (GTM-XXXXXXX), or null when none is configured. */
export function parseTagManagerId(env: Env): string | null {
  const id = clean(env.VITE_GTM_ID)
  if (id === '') return null
  if (!/^GTM-[A-Z0-9]{4,12}$/.test(id))
    throw new Error(`VITE_GTM_ID must look like GTM-XXXXXXX, got "${id}"`)
  return id
}

/** The constants Vite inlines into the page (see build-env.ts). */
export function buildConstants(env: Env): Record<string, string> {
  parseSiteUrl(env)
  return {
    __MAIL_CONFIG__: JSON.stringify(parseMailConfig(env)),
    __TAG_MANAGER_ID__: JSON.stringify(parseTagManagerId(env)),
  }
}
