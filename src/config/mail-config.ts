/**
 * What the page knows of how it sends: the mail configuration's shape, and the no-script form's
 * action and hidden fields. The build reads and checks the variables (build-settings.ts).
 */
import { SEND_FORM_PATH } from '../contract/demo-request.ts'

export type MailMode = 'own-server' | 'email-service'

export type MailConfig = {
  readonly mode: MailMode
  readonly publicKey: string
  readonly serviceId: string
  readonly templateId: string
  /** Origin of the sending API; `null` means the page's own origin (its own server's intake). */
  readonly apiOrigin: string | null
  readonly blockHeadless: boolean
  /** Minimum time between two successful sends from one browser. */
  readonly rateLimitMs: number
  /** How long to wait for the sending API before giving up. */
  readonly sendTimeoutMs: number
}

export const DEFAULT_API_ORIGIN = 'https://api.emailjs.com'
export const LOCAL_IDS = {
  publicKey: 'local-public-key',
  serviceId: 'local_service',
  templateId: 'local_template',
} as const

export const nativeFormAction = (config: MailConfig): string =>
  `${config.apiOrigin ?? ''}${SEND_FORM_PATH}`

/** The fields the form endpoint reads to route a natively posted form, by name. */
export const nativeFormControls = (config: MailConfig): Readonly<Record<string, string>> => ({
  service_id: config.serviceId,
  template_id: config.templateId,
  user_id: config.publicKey,
})
