import type { KeyValueStore } from './key-value-store'
import { emptyValues, type DemoRequestValues } from './demo-request'
import { FIELD_NAMES, MAX_LENGTH } from '../contract/demo-request'

/**
 * The unsent demo request, kept in the visitor's own browser so a reload loses nothing. It is
 * deleted once sent and, as the privacy notice promises, expires 24 hours after the last edit.
 * @internal its tests use it too
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

/** The stored draft as an object, or null. */
function storedDraft(storage: KeyValueStore): Record<string, unknown> | null {
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

/** The Idempotency-Key of the draft and which request it was made for (a hash of it). */
type DraftKey = { key: string; sent: string }

const draftKeyOf = (draft: Record<string, unknown> | null): DraftKey | null => {
  const door = draft?.door as Partial<DraftKey> | undefined
  return typeof door?.key === 'string' && typeof door.sent === 'string'
    ? { key: door.key, sent: door.sent }
    : null
}

export function saveDraft(storage: KeyValueStore, values: DemoRequestValues): void {
  if (FIELD_NAMES.every((name) => values[name] === '')) return storage.remove(DRAFT_KEY)
  // The key stays with the draft it was made for (keyForRequest).
  const door = draftKeyOf(storedDraft(storage))
  storage.set(DRAFT_KEY, JSON.stringify({ ...values, savedAt: Date.now(), ...(door && { door }) }))
}

/** FNV-1a: tells one request from another without keeping it twice. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16)
}

/**
 * The Idempotency-Key our own door is sent with: one per draft, kept with it, so that every
 * retry of a request whose answer was lost (a dropped connection, a reload) carries the same
 * key and the server stores it once. A request that differs from the one the key was made for
 * (the visitor changed a field) gets a new key: it is another request. Sent, the draft is
 * cleared, and the next draft gets a key of its own.
 */
export function keyForRequest(
  storage: KeyValueStore,
  body: string,
  newKey: () => string = () => crypto.randomUUID(),
): string {
  const draft = storedDraft(storage)
  const sent = hashOf(body)
  const kept = draftKeyOf(draft)
  if (kept !== null && kept.sent === sent) return kept.key
  const door = { key: newKey(), sent }
  storage.set(DRAFT_KEY, JSON.stringify({ savedAt: Date.now(), ...draft, door }))
  return door.key
}

export const clearDraft = (storage: KeyValueStore) => storage.remove(DRAFT_KEY)
