import type { KeyValueStore } from './key-value-store'
import { DRAFT_KEY, storedDraft } from './draft'

/** The Idempotency-Key of the draft and which request it was made for (a hash of it). */
type DraftKey = { key: string; sent: string }

const draftKeyOf = (draft: Record<string, unknown> | null): DraftKey | null => {
  const door = draft?.door as Partial<DraftKey> | undefined
  return typeof door?.key === 'string' && typeof door.sent === 'string'
    ? { key: door.key, sent: door.sent }
    : null
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
 * The Idempotency-Key our own door is sent with: one per draft, kept with it (draft.ts keeps it
 * across saves), so that every retry of a request whose answer was lost carries the same key
 * and the server stores it once. A request that differs from the one the key was made for (the
 * visitor changed a field) gets a new key: it is another request. Sent, the draft is cleared, and
 * the next draft gets a key of its own. Only the sender imports this, not the page's first load.
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
