import { useEffect, useRef, useState, type RefObject } from 'react'
import { local } from '../storage'
import { emptyValues, type DemoRequestValues } from '../../rules/demo-request'
import { FIELD_NAMES, newContactNumber } from '../../contract/demo-request'
import { clearDraft, loadDraft, saveDraft } from '../../rules/draft'
import { typedValues } from '../../islands/held-form'
import { keepDraft, type DraftKeeper } from './keep-draft'
import { requestField } from './request-fields'

/** The request the form goes on with once it hydrates. */
type AdoptedRequest = {
  values: DemoRequestValues
  contactNumber: string
  /** The visitor typed into the prerendered form before the scripts arrived. */
  typedBeforeHydration: boolean
}

/**
 * What the visitor has written in the demo request, and the contact number that goes with it.
 * The values live in the form's own fields, where the browser keeps them as the visitor types
 * (no render per key); they are kept as a draft in this browser until sent, so that a reload
 * loses nothing (keep-draft.ts).
 */
export function useRequestValues(formRef: RefObject<HTMLFormElement | null>) {
  const [contactNumber, setContactNumber] = useState('')
  const draft = useRef<DraftKeeper | null>(null)

  useEffect(() => {
    const form = formRef.current
    if (!form) return
    const keeper = keepDraft(form, local)
    draft.current = keeper
    return () => {
      keeper.flush()
      keeper.stop()
      draft.current = null
    }
  }, [formRef])

  /**
   * What the visitor typed into the prerendered form before hydration is kept, and a saved draft
   * only fills the fields left empty.
   */
  const adoptOnHydration = (form: HTMLFormElement): AdoptedRequest => {
    const typed = typedValues(form, FIELD_NAMES)
    const saved = loadDraft(local)
    const values = emptyValues()
    for (const name of FIELD_NAMES) {
      values[name] = typed[name] || saved?.[name] || ''
      const field = requestField(form, name)
      if (field && typed[name] === '' && values[name] !== '') field.value = values[name]
    }
    const typedBeforeHydration = FIELD_NAMES.some((name) => typed[name] !== '')
    // What was typed is an edit, and kept as one; a draft alone keeps the time of its last edit.
    if (typedBeforeHydration) saveDraft(local, values)
    const number = newContactNumber()
    setContactNumber(number)
    return { values, contactNumber: number, typedBeforeHydration }
  }

  /** Once a request is sent: nothing of it is kept, and the next one gets its own number. */
  const startOver = (form: HTMLFormElement) => {
    draft.current?.discard()
    clearDraft(local)
    for (const name of FIELD_NAMES) {
      const field = requestField(form, name)
      if (field) field.value = ''
    }
    setContactNumber(newContactNumber())
  }

  return {
    contactNumber,
    adoptOnHydration,
    startOver,
    /** Saves what is still unsaved: before a send, so a failed one leaves the draft whole. */
    saveDraftNow: () => draft.current?.flush(),
  }
}
