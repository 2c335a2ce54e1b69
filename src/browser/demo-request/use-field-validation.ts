import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
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
import { requestField, requestFieldOf } from './request-fields'

const { errors: messages } = demoForm

/** Our rule for one field, and the browser's e-mail check where it is stricter than ours. */
function messageFor(form: HTMLFormElement, name: FieldName): string | undefined {
  const field = requestField(form, name)
  if (!field) return undefined
  return (
    validateField(name, field.value) ??
    (name === 'user_email' && field.validity.typeMismatch ? messages.email : undefined)
  )
}

/** Our rule joins the browser's own constraint validation, which guards every submit. */
function putInConstraint(field: HTMLInputElement | HTMLTextAreaElement, name: FieldName) {
  field.setCustomValidity(validateField(name, field.value) ?? '')
}

const sameErrors = (a: FieldErrors, b: FieldErrors) =>
  FIELD_NAMES.every((name) => a[name] === b[name] && name in a === name in b)

/**
 * The messages next to the demo request's fields and the summary above its button. A field is
 * judged when the visitor leaves it having changed it, and every field on submit; a message
 * already shown then follows the correction as the visitor types. Typing anything else renders
 * nothing: the listeners are the browser's own, and the messages render only when one changes.
 */
export function useFieldValidation(formRef: RefObject<HTMLFormElement | null>) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [showSummary, setShowSummary] = useState(false)
  // What the fields show now, for the listeners: a field listed here follows the correction.
  const shown = useRef<FieldErrors>(errors)
  // Fields the visitor left, whose message waits for the tap that moved focus to end.
  const left = useRef(new Set<FieldName>())
  // The messages of a refused request, on their way to the frame after the tap's.
  const cancelShowing = useRef<() => void>(() => undefined)

  const show = useCallback((next: FieldErrors) => {
    if (sameErrors(shown.current, next)) return
    shown.current = next
    setErrors(next)
  }, [])

  /** Puts our rules into the browser's constraint validation for every field, showing nothing. */
  const checkQuietly = useCallback((form: HTMLFormElement) => {
    for (const name of FIELD_NAMES) {
      const field = requestField(form, name)
      if (field) putInConstraint(field, name)
    }
  }, [])

  /**
   * The one way a wrong request is shown, whoever found it (the browser's check on submit, or
   * ours before sending): every message, the summary, and focus on the first wrong field, in
   * three painted frames. The frame that answers the tap only marks the wrong fields
   * (`aria-invalid`, their red edge): nothing moves, so the browser repaints those fields alone.
   * The messages and the summary follow in the next frame (they push what is below them down,
   * a repaint of the screen), and focus moves after that (it may scroll the page). Returns true
   * when nothing is wrong.
   */
  const showProblems = useCallback(
    (form: HTMLFormElement, request: DemoRequestValues) => {
      const found = validate(request)
      // The browser's e-mail check refuses some addresses our rule lets through ("(" before the
      // "@"): name it too, or the submit would be refused without a word.
      if (requestField(form, 'user_email')?.validity.typeMismatch)
        found.user_email ??= messages.email
      const first = FIELD_NAMES.find((name) => found[name])
      cancelShowing.current()
      if (first === undefined) {
        show(found)
        setShowSummary(false)
        return true
      }
      // The same attribute React renders with the messages a frame later (field.tsx).
      for (const name of FIELD_NAMES)
        if (found[name]) requestField(form, name)?.setAttribute('aria-invalid', 'true')
      let cancelFocus = (): void => undefined
      const cancelMessages = afterNextPaint(() => {
        show(found)
        setShowSummary(true)
        cancelFocus = afterNextPaint(() => requestField(form, first)?.focus())
      })
      cancelShowing.current = () => {
        cancelMessages()
        cancelFocus()
      }
      return false
    },
    [show],
  )

  useEffect(() => {
    const form = formRef.current
    if (!form) return
    checkQuietly(form)

    // A key: the browser's constraint follows the value (a few microseconds), and a message
    // already shown follows the correction; no new one appears while the visitor types.
    const onInput = (event: Event) => {
      const field = requestFieldOf(event.target)
      if (!field) return
      const name = field.name as FieldName
      putInConstraint(field, name)
      if (!(name in shown.current)) return
      show({ ...shown.current, [name]: messageFor(form, name) })
    }
    // Leaving a field the visitor changed ('change' fires then): its message, if it has one.
    // Not inside the tap or click that moved focus: a message appearing then would move what
    // is being pressed (the submit button, the next field) from under the pointer. It waits for
    // the press to end, and for the click that follows it in the same task.
    const showLeft = () => {
      const names = [...left.current]
      left.current.clear()
      const next = { ...shown.current }
      for (const name of names) {
        const message = messageFor(form, name)
        if (message !== undefined || name in next) next[name] = message
      }
      show(next)
    }
    let pressed = false
    const onPress = () => (pressed = true)
    const onRelease = () => {
      pressed = false
      if (left.current.size > 0) setTimeout(showLeft, 0)
    }
    const onLeave = (event: Event) => {
      const field = requestFieldOf(event.target)
      if (!field) return
      left.current.add(field.name as FieldName)
      if (!pressed) setTimeout(showLeft, 0)
    }
    // The browser found a field invalid on submit: show our message instead of its bubble.
    // 'invalid' does not bubble, so the form listens in the capture phase. One submit fires it
    // at every wrong field, in the same task: the first shows every message, so the others
    // render nothing again inside the visitor's tap.
    let shownThisSubmit = false
    const onInvalid = (event: Event) => {
      event.preventDefault()
      if (shownThisSubmit) return
      shownThisSubmit = true
      setTimeout(() => (shownThisSubmit = false), 0)
      showProblems(form, typedValues(form, FIELD_NAMES))
    }
    form.addEventListener('input', onInput)
    form.addEventListener('change', onLeave)
    form.addEventListener('invalid', onInvalid, true)
    document.addEventListener('pointerdown', onPress, true)
    document.addEventListener('pointerup', onRelease, true)
    document.addEventListener('pointercancel', onRelease, true)
    return () => {
      form.removeEventListener('input', onInput)
      form.removeEventListener('change', onLeave)
      form.removeEventListener('invalid', onInvalid, true)
      document.removeEventListener('pointerdown', onPress, true)
      document.removeEventListener('pointerup', onRelease, true)
      document.removeEventListener('pointercancel', onRelease, true)
    }
  }, [formRef, checkQuietly, show, showProblems])

  /** The request was sent and the fields emptied: no message, and the constraints follow. */
  const clearErrors = (form: HTMLFormElement) => {
    left.current.clear()
    // A refusal still on its way is dropped, and so are the marks of its first frame.
    cancelShowing.current()
    for (const name of FIELD_NAMES) requestField(form, name)?.removeAttribute('aria-invalid')
    checkQuietly(form)
    show({})
    setShowSummary(false)
  }

  return { errors, showSummary, checkRequest: showProblems, checkQuietly, clearErrors }
}
