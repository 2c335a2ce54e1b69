import { useEffect, useEffectEvent, useRef, type FormEvent } from 'react'
import { FIELD_NAMES } from '../../contract/demo-request'
import { takeOverHeldForm, typedValues } from '../../islands/held-form'
import { afterNextPaint } from '../after-next-paint'
import { requestFieldOf } from './request-fields'
import { useFieldValidation } from './use-field-validation'
import { useRequestValues } from './use-request-values'
import { useSendRequest } from './use-send-request'

/**
 * State of the demo request form: the messages next to fields, one send at a time and its
 * outcome. What the visitor types stays in the fields themselves, kept as a draft until it is
 * sent; a key renders nothing. Input is cleared only after success.
 */
export function useDemoRequest() {
  const formRef = useRef<HTMLFormElement>(null)
  const { contactNumber, adoptOnHydration, startOver, saveDraftNow } = useRequestValues(formRef)
  const { errors, showSummary, checkRequest, checkQuietly, clearErrors } =
    useFieldValidation(formRef)
  const { sending, result, markStarted, send, dismissResult } = useSendRequest(checkRequest, () => {
    const form = formRef.current
    if (!form) return
    startOver(form)
    clearErrors(form)
  })

  // Hydration: the form goes on with what the visitor typed or left as a draft, and a submit
  // held before the scripts arrived is sent now. The first key in a field starts the request,
  // once that key has painted: reported inside it, the start made it the slowest key of all.
  const takeOver = useEffectEvent((form: HTMLFormElement) => {
    const adopted = adoptOnHydration(form)
    checkQuietly(form)
    if (adopted.typedBeforeHydration) markStarted()
    if (takeOverHeldForm(form)) void send(form, adopted.values, adopted.contactNumber)
  })
  const start = useEffectEvent(() => markStarted())
  useEffect(() => {
    const form = formRef.current
    if (!form) return
    takeOver(form)
    let cancelStart: (() => void) | undefined
    const onInput = (event: Event) => {
      if (!requestFieldOf(event.target)) return
      form.removeEventListener('input', onInput)
      cancelStart = afterNextPaint(start)
    }
    form.addEventListener('input', onInput)
    return () => {
      form.removeEventListener('input', onInput)
      cancelStart?.()
    }
  }, [])

  return {
    formRef,
    errors,
    sending,
    result,
    contactNumber,
    showSummary,
    submit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      const form = event.currentTarget
      saveDraftNow()
      void send(form, typedValues(form, FIELD_NAMES), contactNumber)
    },
    dismissResult,
  }
}
