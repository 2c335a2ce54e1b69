import { useEffect, useEffectEvent, useRef, type FormEvent } from 'react'
import type { FieldName } from '../../contract/demo-request'
import { takeOverHeldForm } from '../../islands/held-form'
import { useFieldValidation } from './use-field-validation'
import { useRequestValues } from './use-request-values'
import { useSendRequest } from './use-send-request'

export { HONEYPOT_NAME } from './use-send-request'

/**
 * State of the demo request form: what the visitor typed (kept as a draft until it is sent),
 * the messages next to fields, and one send at a time. Input is cleared only after success.
 */
export function useDemoRequest() {
  const formRef = useRef<HTMLFormElement>(null)
  const { values, contactNumber, adoptOnHydration, setValue, startOver } = useRequestValues()
  const { errors, showSummary, checkRequest, recheckField, clearErrors } = useFieldValidation(
    formRef,
    values,
  )
  const { sending, result, markStarted, send, dismissResult } = useSendRequest(checkRequest, () => {
    startOver()
    clearErrors()
  })

  // Hydration: the form goes on with what the visitor typed or left as a draft, and a submit
  // held before the scripts arrived is sent now.
  const takeOver = useEffectEvent((form: HTMLFormElement) => {
    const adopted = adoptOnHydration(form)
    if (adopted.typedBeforeHydration) markStarted()
    if (takeOverHeldForm(form)) void send(form, adopted.values, adopted.contactNumber)
  })
  useEffect(() => {
    if (formRef.current) takeOver(formRef.current)
  }, [])

  return {
    formRef,
    values,
    errors,
    sending,
    result,
    contactNumber,
    showSummary,
    change: (name: FieldName, value: string) => {
      markStarted()
      setValue(name, value)
      recheckField(name, value)
    },
    submit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault()
      void send(event.currentTarget, values, contactNumber)
    },
    dismissResult,
  }
}
