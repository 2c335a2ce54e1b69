// What the page sends and the server accepts, written once. The page (through Vite) and the
// production server (compiled by tsconfig.server.json) both import this module, so neither side
// can rename a field, loosen a limit or move an endpoint without the other following. It imports
// nothing: it is the lowest layer of both programs.

/** The sending API's endpoints, as @emailjs/browser calls them (relative to its origin). */
export const SEND_PATH = '/api/v1.0/email/send'
export const SEND_FORM_PATH = '/api/v1.0/email/send-form'

/** The demo request's fields, named as the specification names them. */
export const FIELD_NAMES = [
  'user_name',
  'user_email',
  'user_phone',
  'user_group',
  'message',
] as const
export type FieldName = (typeof FIELD_NAMES)[number]

export const MAX_LENGTH: Readonly<Record<FieldName, number>> = {
  user_name: 120,
  user_email: 254,
  user_phone: 30,
  user_group: 160,
  message: 2000,
}

export const REQUIRED: Readonly<Record<FieldName, boolean>> = {
  user_name: true,
  user_email: true,
  user_phone: true,
  user_group: true,
  message: false,
}

/**
 * An address a sales inbox can answer, as the server takes it: the browser's own rule for
 * type="email" (WHATWG's "valid e-mail address": no spaces, quotes, brackets or display name),
 * and a dot in the domain.
 */
const EMAIL_ADDRESS =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/
export const isEmailAddress = (value: string): boolean => EMAIL_ADDRESS.test(value.trim())

/** The form's bot trap: a field no person sees or fills. */
export const HONEYPOT_FIELD = 'website'

/** A random number of up to five digits that names the request in conversation. */
export const CONTACT_NUMBER_PARAM = 'contact_number'
export const MAX_CONTACT_NUMBER = 100_000
export const newContactNumber = (random: () => number = Math.random): string =>
  String(Math.floor(random() * MAX_CONTACT_NUMBER))
/** A contact number as the page makes it: digits only. */
export const isContactNumber = (value: string): boolean => /^\d+$/.test(value)

/** Form controls that configure the call rather than fill the template. */
export const CONTROL_FIELDS = ['lib_version', 'service_id', 'template_id', 'user_id'] as const

/**
 * The ids of the home page's sections that tell a browser running no script how its posted
 * form went: the form endpoint answers with a redirect to `/#id`.
 */
export const POSTED_RESULT_IDS = {
  sent: 'solicitud-enviada',
  failed: 'solicitud-no-enviada',
} as const
