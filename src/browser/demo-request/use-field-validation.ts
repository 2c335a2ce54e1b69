import { useEffect, useState, type RefObject } from 'react'
import { demoForm } from '../../content/demo-form'
import { afterNextPaint } from '../after-paint'
import {
  validate,
  validateField,
  type DemoRequestValues,
  type FieldErrors,
} from '../../rules/demo-request'
import { FIELD_NAMES, type FieldName } from '../../contract/demo-request'

const { errors: messages } = demoForm

const fieldOf = (form: HTMLFormElement, name: FieldName) =>
  form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null

/**
 * The messages next to the demo request's fields and the summary above its button. Our rules
 * join the browser's own constraint validation, so one check guards the submit.
 */
export function useFieldValidation(
  formRef: RefObject<HTMLFormElement | null>,
  values: DemoRequestValues,
) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [showSummary, setShowSummary] = useState(false)

  useEffect(() => {
    const form = formRef.current
    if (!form) return
    for (const name of FIELD_NAMES)
      fieldOf(form, name)?.setCustomValidity(validateField(name, values[name]) ?? '')
  }, [formRef, values])

  // The browser found a field invalid on submit: show our message instead of its bubble.
  // 'invalid' does not bubble, so the form listens in the capture phase, natively.
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    // One submit fires 'invalid' at every wrong field, in the same task. The first event shows
    // every message, so the others render nothing again inside the visitor's tap.
    let shownThisSubmit = false
    const showInvalid = (event: Event) => {
      event.preventDefault()
      if (shownThisSubmit) return
      shownThisSubmit = true
      setTimeout(() => (shownThisSubmit = false), 0)
      const found = validate(
        Object.fromEntries(
          FIELD_NAMES.map((name) => [name, fieldOf(form, name)?.value ?? '']),
        ) as DemoRequestValues,
      )
      // The browser's e-mail check refuses some addresses our rule lets through ("(" before the
      // "@"): name it too, or the submit would be refused without a word.
      if (fieldOf(form, 'user_email')?.validity.typeMismatch) found.user_email ??= messages.email
      setErrors(found)
      setShowSummary(true)
      const first = FIELD_NAMES.find((name) => found[name])
      // The messages answer the tap first; moving focus scrolls the page, so it waits a frame.
      if (first) afterNextPaint(() => fieldOf(form, first)?.focus())
    }
    form.addEventListener('invalid', showInvalid, true)
    return () => form.removeEventListener('invalid', showInvalid, true)
  }, [formRef])

  /** Shows what is wrong with `request` and focuses its first wrong field; true if nothing is. */
  const checkRequest = (form: HTMLFormElement, request: DemoRequestValues) => {
    const found = validate(request)
    setErrors(found)
    const first = FIELD_NAMES.find((name) => found[name])
    setShowSummary(!!first)
    if (first) fieldOf(form, first)?.focus()
    return !first
  }

  /** A message already shown follows the correction as the visitor types; no new one appears. */
  const recheckField = (name: FieldName, value: string) =>
    setErrors((current) =>
      name in current ? { ...current, [name]: validateField(name, value) } : current,
    )

  const clearErrors = () => setErrors({})

  return { errors, showSummary, checkRequest, recheckField, clearErrors }
}
