import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { afterNextPaint } from './after-paint'
import { track } from './analytics'
import { attributionParams, captureFirstTouch } from '../rules/attribution'
import { local, session } from './storage'
import {
  emptyValues,
  FIELD_NAMES,
  newContactNumber,
  trimValues,
  validate,
  validateField,
  type DemoRequestValues,
  type FieldErrors,
  type FieldName,
} from '../rules/demo-request'
import { demoRequestSender } from './demo-request-sender'
import { clearDraft, loadDraft, saveDraft } from '../rules/draft'
import type { FallbackLinks } from '../rules/fallback-links'
import { sendErrorText } from '../rules/send-error-text'
import { releaseHeldButton, takeOverHeldForm, typedValues } from '../islands/held-form'

export type SendResult =
  | { kind: 'success' }
  /** `links` send the request that failed by other ways (null if they could not be loaded). */
  | { kind: 'error'; text: string; links: FallbackLinks | null }

export const HONEYPOT_NAME = 'website'

// Needed only when a send fails: loaded with the visitor's first input, never with the page.
const loadFallbackLinks = () => import('../rules/fallback-links')

const fieldOf = (form: HTMLFormElement, name: FieldName) =>
  form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null

/**
 * State of the demo request form: what the visitor typed (kept as a draft until it is sent),
 * the messages next to fields, and one send at a time. Input is cleared only after success.
 */
export function useDemoRequest() {
  const formRef = useRef<HTMLFormElement>(null)
  const [values, setValues] = useState<DemoRequestValues>(emptyValues)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<SendResult | null>(null)
  const [contactNumber, setContactNumber] = useState('')
  const [showSummary, setShowSummary] = useState(false)
  const sendingRef = useRef(false)
  const started = useRef(false)
  // The empty values of the first render, before the draft is read: never saved over a draft.
  const pristine = useRef(values)

  const start = useCallback(() => {
    if (started.current) return
    started.current = true
    track({ event: 'demo_form_start' })
    demoRequestSender.preload()
    void loadFallbackLinks().catch(() => undefined)
  }, [])

  const sendRequest = useCallback(
    async (form: HTMLFormElement, request: DemoRequestValues, number: string) => {
      if (sendingRef.current) return
      const found = validate(request)
      setErrors(found)
      const first = FIELD_NAMES.find((name) => found[name])
      if (first) {
        releaseHeldButton(form)
        setShowSummary(true)
        fieldOf(form, first)?.focus()
        return
      }
      setShowSummary(false)

      const succeed = () => {
        clearDraft(local)
        setValues(emptyValues())
        setErrors({})
        setContactNumber(newContactNumber())
        setResult({ kind: 'success' })
      }

      // A filled honeypot is a bot: it is told it succeeded and nothing is sent.
      const trap = form.elements.namedItem(HONEYPOT_NAME)
      if (trap instanceof HTMLInputElement && trap.value !== '') {
        trap.value = ''
        releaseHeldButton(form)
        succeed()
        return
      }

      sendingRef.current = true
      setSending(true)
      const campaign = attributionParams(
        captureFirstTouch(session, new URL(window.location.href), document.referrer),
      )
      const sent = { ...trimValues(request), contact_number: number }
      try {
        await demoRequestSender.send({ ...sent, ...campaign })
        track({ event: 'demo_request_submitted', traffic_source: campaign.traffic_source })
        succeed()
      } catch (error) {
        const text = sendErrorText(error)
        track({ event: 'demo_request_failed', error: text })
        const links = await loadFallbackLinks().then(
          ({ salesRequestLinks }) => salesRequestLinks(sent),
          () => null,
        )
        setResult({ kind: 'error', text, links })
      } finally {
        sendingRef.current = false
        setSending(false)
      }
    },
    [],
  )

  // Hydration: what the visitor typed into the prerendered form is kept (a saved draft only
  // fills the fields left empty), and a submit held before the scripts arrived is sent now.
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    const typed = typedValues(form, FIELD_NAMES)
    const draft = loadDraft(local)
    const initial = emptyValues()
    for (const name of FIELD_NAMES) initial[name] = typed[name] || draft?.[name] || ''
    const number = newContactNumber()
    setValues(initial)
    setContactNumber(number)
    if (FIELD_NAMES.some((name) => typed[name] !== '')) start()
    if (takeOverHeldForm(form)) void sendRequest(form, initial, number)
  }, [start, sendRequest])

  useEffect(() => {
    if (values !== pristine.current) saveDraft(local, values)
    // Our rules join the browser's own constraint validation, so one check guards the submit.
    const form = formRef.current
    if (!form) return
    for (const name of FIELD_NAMES)
      fieldOf(form, name)?.setCustomValidity(validateField(name, values[name]) ?? '')
  }, [values])

  const change = useCallback(
    (name: FieldName, value: string) => {
      start()
      setValues((current) => ({ ...current, [name]: value }))
      // A message already shown follows the correction as the visitor types.
      setErrors((current) =>
        name in current ? { ...current, [name]: validateField(name, value) } : current,
      )
    },
    [start],
  )

  // The browser found a field invalid on submit: show our message instead of its bubble.
  // 'invalid' does not bubble, so the form listens in the capture phase, natively.
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    const showInvalid = (event: Event) => {
      event.preventDefault()
      const found = validate(
        Object.fromEntries(
          FIELD_NAMES.map((name) => [name, fieldOf(form, name)?.value ?? '']),
        ) as DemoRequestValues,
      )
      setErrors(found)
      setShowSummary(true)
      const first = FIELD_NAMES.find((name) => found[name])
      // The messages answer the tap first; moving focus scrolls the page, so it waits a frame.
      if (first && event.target === fieldOf(form, first))
        afterNextPaint(() => fieldOf(form, first)?.focus())
    }
    form.addEventListener('invalid', showInvalid, true)
    return () => form.removeEventListener('invalid', showInvalid, true)
  }, [])

  const submit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      void sendRequest(event.currentTarget, values, contactNumber)
    },
    [sendRequest, values, contactNumber],
  )

  return {
    formRef,
    values,
    errors,
    sending,
    result,
    contactNumber,
    showSummary,
    change,
    submit,
    dismissResult: () => setResult(null),
  }
}
