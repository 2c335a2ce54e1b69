import { useEffect, useRef, useState } from 'react'
import { local } from '../storage'
import { emptyValues, type DemoRequestValues } from '../../rules/demo-request'
import { FIELD_NAMES, newContactNumber, type FieldName } from '../../contract/demo-request'
import { clearDraft, loadDraft, saveDraft } from '../../rules/draft'
import { typedValues } from '../../islands/held-form'

/** The request the form goes on with once it hydrates. */
type AdoptedRequest = {
  values: DemoRequestValues
  contactNumber: string
  /** The visitor typed into the prerendered form before the scripts arrived. */
  typedBeforeHydration: boolean
}

/**
 * What the visitor has written in the demo request, kept as a draft in this browser until it
 * is sent so that a reload loses nothing, and the contact number that goes with it.
 */
export function useRequestValues() {
  const [values, setValues] = useState<DemoRequestValues>(emptyValues)
  const [contactNumber, setContactNumber] = useState('')
  // The empty values of the first render, before the draft is read: never saved over a draft.
  const pristine = useRef(values)

  useEffect(() => {
    if (values !== pristine.current) saveDraft(local, values)
  }, [values])

  /**
   * What the visitor typed into the prerendered form before hydration is kept, and a saved draft
   * only fills the fields left empty.
   */
  const adoptOnHydration = (form: HTMLFormElement): AdoptedRequest => {
    const typed = typedValues(form, FIELD_NAMES)
    const draft = loadDraft(local)
    const initial = emptyValues()
    for (const name of FIELD_NAMES) initial[name] = typed[name] || draft?.[name] || ''
    const number = newContactNumber()
    setValues(initial)
    setContactNumber(number)
    return {
      values: initial,
      contactNumber: number,
      typedBeforeHydration: FIELD_NAMES.some((name) => typed[name] !== ''),
    }
  }

  const setValue = (name: FieldName, value: string) =>
    setValues((current) => ({ ...current, [name]: value }))

  /** Once a request is sent: nothing of it is kept, and the next one gets its own number. */
  const startOver = () => {
    clearDraft(local)
    setValues(emptyValues())
    setContactNumber(newContactNumber())
  }

  return { values, contactNumber, adoptOnHydration, setValue, startOver }
}
