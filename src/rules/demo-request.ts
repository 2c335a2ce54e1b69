import { demoForm } from '../copy/demo-form'
import { FIELD_NAMES, type FieldName } from '../contract/demo-request'
import { fieldProblem } from '../contract/demo-request-fields'

/** The demo request as the sending template receives it (names fixed by the contract). */
export type DemoRequestValues = Record<FieldName, string>
export type FieldErrors = Partial<Record<FieldName, string>>

export const emptyValues = (): DemoRequestValues =>
  Object.fromEntries(FIELD_NAMES.map((field) => [field, ''])) as DemoRequestValues

/** @internal its tests use it too */
export { isValidPhone } from '../contract/demo-request-fields'

export function trimValues(values: DemoRequestValues): DemoRequestValues {
  const trimmed = emptyValues()
  for (const name of FIELD_NAMES) trimmed[name] = values[name].trim()
  return trimmed
}

/** The field's problem as the form shows it, by the rule the door's schema applies too. */
export const validateField = (name: FieldName, value: string): string | undefined =>
  fieldProblem(name, value, demoForm.errors)

export function validate(values: DemoRequestValues): FieldErrors {
  const found: FieldErrors = {}
  for (const name of FIELD_NAMES) {
    const error = validateField(name, values[name])
    if (error) found[name] = error
  }
  return found
}
