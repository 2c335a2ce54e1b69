// The e-mail service endpoints' check of a demo request's template parameters (our own door
// checks with the contract's schema, demo-request-schema.ts, whose limits it shares), by the
// rules of the contract the page follows: only the parameters the page sends, none longer than
// the page lets them be, no control characters or characters XML excludes, no field of
// invisible characters alone, and the four required fields filled. It never trusts the page to
// have checked: a script, a bot or an old page can post anything. The answer is a Spanish
// sentence the page shows after '¡Error!'.
import { ATTRIBUTION_MAX_LENGTH } from '../../src/contract/attribution.js'
import { hasForbiddenCharacters, isInvisible } from '../../src/contract/characters.js'
import { PARAM_MAX_LENGTH, safeAttribution } from '../../src/contract/demo-request-schema.js'
import {
  CONTACT_NUMBER_PARAM,
  FIELD_NAMES,
  isContactNumber,
  isEmailAddress,
  REQUIRED,
  type FieldName,
} from '../../src/contract/demo-request.js'
import { refusals } from '../../src/contract/lead-server-text.js'
import { newRecord } from '../store/index.js'

/**
 * Every template parameter the page may send, with the longest value each may hold: the door's.
 * @internal its tests use it too
 */
export const TEMPLATE_PARAM_MAX_LENGTH = PARAM_MAX_LENGTH

const isField = (name: string): name is FieldName =>
  (FIELD_NAMES as readonly string[]).includes(name)

/**
 * The parameters with the attribution values made safe: they come from anyone's link, not from
 * the visitor's typing, so an invisible character in them is made a space rather than costing
 * the visitor their request. (The page only cleans the ASCII controls: see rules/attribution.)
 */
export function withCleanAttribution(
  params: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      Object.hasOwn(ATTRIBUTION_MAX_LENGTH, name) ? safeAttribution(value) : value,
    ]),
  )
}

/** Why the parameters cannot be stored, or null when they can. */
export function checkTemplateParams(params: Readonly<Record<string, string>>): string | null {
  for (const [name, value] of Object.entries(params)) {
    const max = Object.hasOwn(TEMPLATE_PARAM_MAX_LENGTH, name)
      ? TEMPLATE_PARAM_MAX_LENGTH[name]
      : undefined
    if (max === undefined) return refusals.malformed
    if (hasForbiddenCharacters(value))
      return refusals.forbiddenCharacters(isField(name) ? name : null)
    // A field of nothing but a zero-width space or a direction mark is empty to a person.
    if (isField(name) && isInvisible(value)) return refusals.forbiddenCharacters(name)
    if (value.length > max) return isField(name) ? refusals.tooLong(name, max) : refusals.malformed
  }
  const missing = FIELD_NAMES.filter((name) => REQUIRED[name] && (params[name] ?? '').trim() === '')
  if (missing.length > 0) return refusals.missing(missing)
  // What reaches the sales team is an address they can answer and a number they can quote.
  if (!isEmailAddress(params.user_email ?? '')) return refusals.invalidEmail
  const contact = params[CONTACT_NUMBER_PARAM]
  if (contact !== undefined && !isContactNumber(contact)) return refusals.contactNumberNotDigits
  return null
}

/** The longest id (service, template) the intake stores. */
export const MAX_ID_LENGTH = 100

/**
 * The most bytes one accepted request can add to the store: every parameter at its longest, in
 * characters that take three bytes of UTF-8 each (the most a UTF-16 unit can take once the
 * control characters and lone surrogates that JSON would escape are refused).
 */
export const LARGEST_RECORD_BYTES = Buffer.byteLength(
  `${JSON.stringify(
    newRecord(
      'x'.repeat(MAX_ID_LENGTH),
      'x'.repeat(MAX_ID_LENGTH),
      Object.fromEntries(
        Object.entries(TEMPLATE_PARAM_MAX_LENGTH).map(([name, max]) => [name, '€'.repeat(max)]),
      ),
    ),
  )}\n`,
)
