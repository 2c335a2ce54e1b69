import { useCallback, useEffect, useState, type RefObject } from 'react'
import { demoForm } from '../../copy/demo-form'
import { typedValues } from '../../islands/held-form'
import { afterNextPaint } from '../after-next-paint'
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

  /**
   * The one way a wrong request is shown, whoever found it (the browser's check on submit, or
   * ours before sending): every message, the summary, and focus on the first wrong field. Focus
   * moves one painted frame later: it scrolls the page, and the messages answer the tap first.
   * Returns true when nothing is wrong.
   */
  const showProblems = useCallback((form: HTMLFormElement, request: DemoRequestValues) => {
    const found = validate(request)
    // The browser's e-mail check refuses some addresses our rule lets through ("(" before the
    // "@"): name it too, or the submit would be refused without a word.
    if (fieldOf(form, 'user_email')?.validity.typeMismatch) found.user_email ??= messages.email
    setErrors(found)
    const first = FIELD_NAMES.find((name) => found[name])
    setShowSummary(first !== undefined)
    if (first) afterNextPaint(() => fieldOf(form, first)?.focus())
    return first === undefined
  }, [])

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
      showProblems(form, typedValues(form, FIELD_NAMES))
    }
    form.addEventListener('invalid', showInvalid, true)
    return () => form.removeEventListener('invalid', showInvalid, true)
  }, [formRef, showProblems])

  /** A message already shown follows the correction as the visitor types; no new one appears. */
  const recheckField = (name: FieldName, value: string) =>
    setErrors((current) =>
      name in current ? { ...current, [name]: validateField(name, value) } : current,
    )

  const clearErrors = () => setErrors({})

  return { errors, showSummary, checkRequest: showProblems, recheckField, clearErrors }
}
