import type { KeyValueStore } from './key-value-store'
import { emptyValues, type DemoRequestValues } from './demo-request'
import { FIELD_NAMES, MAX_LENGTH } from '../contract/demo-request'

/**
 * The unsent demo request, kept in the visitor's own browser so a reload loses nothing. It is
 * deleted once sent and, as the privacy notice promises, expires 24 hours after the last edit.
 * @internal draft-key.ts and the tests use it too
 */
export const DRAFT_KEY = 'gaspre:demo-request-draft'
/** @internal its tests use it too */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000

export function loadDraft(storage: KeyValueStore): DemoRequestValues | null {
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
  // A draft without a time (saved before drafts expired) is as stale as an expired one.
  const savedAt = (parsed as { savedAt?: unknown }).savedAt
  const age = Date.now() - (typeof savedAt === 'number' ? savedAt : 0)
  if (!(age >= 0 && age < DRAFT_MAX_AGE_MS)) {
    storage.remove(DRAFT_KEY)
    return null
  }
  const draft = emptyValues()
  for (const name of FIELD_NAMES) {
    const value = (parsed as Record<string, unknown>)[name]
    if (typeof value === 'string') draft[name] = value.slice(0, MAX_LENGTH[name])
  }
  return FIELD_NAMES.some((name) => draft[name] !== '') ? draft : null
}

export function saveDraft(storage: KeyValueStore, values: DemoRequestValues): void {
  if (FIELD_NAMES.every((name) => values[name] === '')) return storage.remove(DRAFT_KEY)
  // The draft's Idempotency-Key (draft-key.ts) stays with it.
  const door = storedDraft(storage)?.door
  storage.set(
    DRAFT_KEY,
    JSON.stringify({ ...values, savedAt: Date.now(), ...(door !== undefined && { door }) }),
  )
}

/**
 * The stored draft as an object, or null.
 * @internal draft-key.ts reads it too
 */
export function storedDraft(storage: KeyValueStore): Record<string, unknown> | null {
  const stored = storage.get(DRAFT_KEY)
  if (stored === null) return null
  try {
    const parsed: unknown = JSON.parse(stored)
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

export const clearDraft = (storage: KeyValueStore) => storage.remove(DRAFT_KEY)
