import type { KeyValueStore } from '../../rules/key-value-store'
import { saveDraft } from '../../rules/draft'
import { FIELD_NAMES } from '../../contract/demo-request'
import { typedValues } from '../../islands/held-form'
import { requestFieldOf } from './request-fields'

/**
 * How long the visitor stops typing before the draft is saved. Long enough that a word typed at
 * any pace costs no write, short enough that a tab closed by the system loses little.
 * @internal its tests use it too
 */
export const DRAFT_PAUSE_MS = 1000

export type DraftKeeper = {
  /** Saves at once whatever was edited since the last save (before a send, for one). */
  flush(): void
  /** Forgets edits not yet saved: the request was sent, so they must not come back. */
  discard(): void
  stop(): void
}

/**
 * Keeps the demo request the visitor is writing as a draft in this browser, so a reload loses
 * nothing, without a synchronous storage write on every key: it is saved when the visitor
 * pauses, leaves a field they changed, or the page is hidden or left (the last moment a mobile
 * browser promises to run script). Only an edit is saved, so the draft expires 24 hours after the
 * last one, as the privacy notice says. Plain listeners: typing renders nothing.
 */
export function keepDraft(form: HTMLFormElement, storage: KeyValueStore): DraftKeeper {
  let edited = false
  let pause: ReturnType<typeof setTimeout> | undefined

  const flush = () => {
    clearTimeout(pause)
    if (!edited) return
    edited = false
    saveDraft(storage, typedValues(form, FIELD_NAMES))
  }
  const onInput = (event: Event) => {
    if (!requestFieldOf(event.target)) return
    edited = true
    clearTimeout(pause)
    pause = setTimeout(flush, DRAFT_PAUSE_MS)
  }
  const onHidden = () => {
    if (document.visibilityState === 'hidden') flush()
  }

  form.addEventListener('input', onInput)
  // 'change' fires when the visitor leaves a text field whose value they changed.
  form.addEventListener('change', flush)
  window.addEventListener('pagehide', flush)
  document.addEventListener('visibilitychange', onHidden)
  return {
    flush,
    discard: () => {
      clearTimeout(pause)
      edited = false
    },
    stop: () => {
      clearTimeout(pause)
      form.removeEventListener('input', onInput)
      form.removeEventListener('change', flush)
      window.removeEventListener('pagehide', flush)
      document.removeEventListener('visibilitychange', onHidden)
    },
  }
}
