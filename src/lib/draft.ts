import type { SafeStorage } from './browser-storage'
import { emptyValues, FIELD_NAMES, MAX_LENGTH, type DemoRequestValues } from './demo-request'

/** The unsent demo request, kept in the visitor's own browser so a reload loses nothing. */
export const DRAFT_KEY = 'gaspre:demo-request-draft'

export function loadDraft(storage: SafeStorage): DemoRequestValues | null {
  const stored = storage.get(DRAFT_KEY)
  if (stored === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(stored)
  } catch {
    storage.remove(DRAFT_KEY)
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const draft = emptyValues()
  for (const name of FIELD_NAMES) {
    const value = (parsed as Record<string, unknown>)[name]
    if (typeof value === 'string') draft[name] = value.slice(0, MAX_LENGTH[name])
  }
  return FIELD_NAMES.some((name) => draft[name] !== '') ? draft : null
}

export function saveDraft(storage: SafeStorage, values: DemoRequestValues): void {
  if (FIELD_NAMES.every((name) => values[name] === '')) storage.remove(DRAFT_KEY)
  else storage.set(DRAFT_KEY, JSON.stringify(values))
}

export const clearDraft = (storage: SafeStorage) => storage.remove(DRAFT_KEY)
