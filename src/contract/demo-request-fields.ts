// The rules of each field of the demo request and the messages the form shows for them: the
// page checks each field with these as the visitor types (without loading zod), and the door's
// schema (demo-request-schema.ts) is made of the same rules, so a field the page takes is a
// field the server takes. Imports only the contract.
import { isEmailAddress, MAX_LENGTH, REQUIRED, type FieldName } from './demo-request.js'

/** Our own server's door for the demo request (own-server builds). */
export const DOOR_PATH = '/api/demo-requests'

/** The header that names one draft's request across retries (IETF draft, see the server). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

export type RequiredFieldName = Exclude<FieldName, 'message'>

/** The form's messages as content/formulario.yml writes them: `{max}` marks the length. */
interface FieldMessageTexts {
  required: Readonly<Record<RequiredFieldName, string>>
  email: string
  phone: string
  tooLong: string
}

/** The same messages, the length one filled in. */
export interface FieldMessages {
  required: Readonly<Record<RequiredFieldName, string>>
  email: string
  phone: string
  tooLong: (max: number) => string
}

export const fieldMessagesFrom = (texts: FieldMessageTexts): FieldMessages => ({
  ...texts,
  tooLong: (max) => texts.tooLong.replace(/\{max\}/g, String(max)),
})

// Mexico (10 digits, +52), Spain (9, +34) and Latin America (7 to 11, +5x): 7 to 15 digits
// after an optional +, with the separators people actually type.
const PHONE_SEPARATORS = /[\s().-]/g
const PHONE = /^\+?\d{7,15}$/

/** @internal its tests use it too */
export const isValidPhone = (value: string): boolean =>
  PHONE.test(value.replace(PHONE_SEPARATORS, ''))

/** What is wrong with one field's value, as the form says it beside the field; or undefined. */
export function fieldProblem(
  name: FieldName,
  rawValue: string,
  messages: FieldMessages,
): string | undefined {
  const value = rawValue.trim()
  if (value === '')
    return name === 'message' || !REQUIRED[name] ? undefined : messages.required[name]
  if (value.length > MAX_LENGTH[name]) return messages.tooLong(MAX_LENGTH[name])
  if (name === 'user_email' && !isEmailAddress(value)) return messages.email
  if (name === 'user_phone' && !isValidPhone(value)) return messages.phone
  return undefined
}
