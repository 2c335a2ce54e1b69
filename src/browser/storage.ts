import type { KeyValueStore } from '../rules/key-value-store'

/**
 * Web Storage that never throws: private modes, full quotas and disabled storage must not
 * break the form. Reads answer `null` and writes are dropped when storage is unavailable.
 * @internal its tests use it too
 */
export function safeStorage(pick: () => Storage): KeyValueStore {
  const attempt = <T>(action: (storage: Storage) => T, fallback: T): T => {
    try {
      return action(pick())
    } catch {
      return fallback
    }
  }
  return {
    get: (key) => attempt((s) => s.getItem(key), null),
    set: (key, value) => attempt((s) => s.setItem(key, value), undefined),
    remove: (key) => attempt((s) => s.removeItem(key), undefined),
  }
}

export const local = safeStorage(() => window.localStorage)
export const session = safeStorage(() => window.sessionStorage)
