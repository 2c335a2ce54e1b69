import { demoForm } from '../copy/demo-form'
import {
  FIELD_NAMES,
  MAX_LENGTH,
  REQUIRED,
  isEmailAddress,
  type FieldName,
} from '../contract/demo-request'

/** The demo request as the sending template receives it (names fixed by the contract). */
export type DemoRequestValues = Record<FieldName, string>
export type FieldErrors = Partial<Record<FieldName, string>>

export const emptyValues = (): DemoRequestValues =>
  Object.fromEntries(FIELD_NAMES.map((field) => [field, ''])) as DemoRequestValues

// Mexico (10 digits, +52), Spain (9, +34) and Latin America (7 to 11, +5x): 7 to 15 digits
// after an optional +, with the separators people actually type.
const PHONE_SEPARATORS = /[\s().-]/g
const PHONE = /^\+?\d{7,15}$/

/** @internal its tests use it too */
export const isValidPhone = (value: string) => PHONE.test(value.replace(PHONE_SEPARATORS, ''))

export function trimValues(values: DemoRequestValues): DemoRequestValues {
  const trimmed = emptyValues()
  for (const name of FIELD_NAMES) trimmed[name] = values[name].trim()
  return trimmed
}

export function validateField(name: FieldName, rawValue: string): string | undefined {
  const value = rawValue.trim()
  const { errors } = demoForm
  if (value === '') return REQUIRED[name] ? errors.required[name] : undefined
  if (value.length > MAX_LENGTH[name]) return errors.tooLong(MAX_LENGTH[name])
  if (name === 'user_email' && !isEmailAddress(value)) return errors.email
  if (name === 'user_phone' && !isValidPhone(value)) return errors.phone
  return undefined
}

export function validate(values: DemoRequestValues): FieldErrors {
  const found: FieldErrors = {}
  for (const name of FIELD_NAMES) {
    const error = validateField(name, values[name])
    if (error) found[name] = error
  }
  return found
}
