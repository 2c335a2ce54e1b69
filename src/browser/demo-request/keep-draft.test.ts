import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FIELD_NAMES, HONEYPOT_FIELD } from '../../contract/demo-request'
import { DRAFT_KEY } from '../../rules/draft'
import type { KeyValueStore } from '../../rules/key-value-store'
import { DRAFT_PAUSE_MS, keepDraft, type DraftKeeper } from './keep-draft'

let form: HTMLFormElement
let writes: string[]
let keeper: DraftKeeper
const stored = new Map<string, string>()
const storage: KeyValueStore = {
  get: (key) => stored.get(key) ?? null,
  set: (key, value) => {
    writes.push(value)
    stored.set(key, value)
  },
  remove: (key) => void stored.delete(key),
}
const draft = () => JSON.parse(stored.get(DRAFT_KEY) ?? 'null') as Record<string, unknown> | null
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement

/** A key in a field: the browser changes the value and fires 'input'. */
function key(name: string, value: string) {
  field(name).value = value
  field(name).dispatchEvent(new Event('input', { bubbles: true }))
}
/** The visitor leaves a field they changed: the browser fires 'change'. */
const leave = (name: string) => field(name).dispatchEvent(new Event('change', { bubbles: true }))

beforeEach(() => {
  vi.useFakeTimers()
  stored.clear()
  writes = []
  form = document.createElement('form')
  for (const name of [...FIELD_NAMES, HONEYPOT_FIELD]) {
    const input = document.createElement('input')
    input.name = name
    form.append(input)
  }
  document.body.append(form)
  keeper = keepDraft(form, storage)
})

afterEach(() => {
  keeper.stop()
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('keepDraft', () => {
  it('writes nothing while the visitor types, and saves once they pause', () => {
    const name = 'Ana López'
    for (let length = 1; length <= name.length; length++) {
      key('user_name', name.slice(0, length))
      vi.advanceTimersByTime(DRAFT_PAUSE_MS / 4)
    }
    expect(writes).toEqual([])
    vi.advanceTimersByTime(DRAFT_PAUSE_MS)
    expect(writes).toHaveLength(1)
    expect(draft()).toMatchObject({ user_name: 'Ana López', user_email: '' })
  })

  it('saves at once when the visitor leaves a field they changed', () => {
    key('user_email', 'ana@grupo.mx')
    leave('user_email')
    expect(draft()).toMatchObject({ user_email: 'ana@grupo.mx' })
    // The pause that was pending has nothing left to save.
    vi.advanceTimersByTime(DRAFT_PAUSE_MS)
    expect(writes).toHaveLength(1)
  })

  it('saves what is unsaved when the page is hidden or left', () => {
    key('user_group', 'Grupo Altamar')
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
    expect(draft()).toMatchObject({ user_group: 'Grupo Altamar' })
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
    key('message', 'Hola')
    window.dispatchEvent(new Event('pagehide'))
    expect(draft()).toMatchObject({ user_group: 'Grupo Altamar', message: 'Hola' })
    expect(writes).toHaveLength(2)
  })

  it('saves nothing without an edit, so a draft keeps the time of its last one', () => {
    const earlier = JSON.stringify({ user_name: 'Ana', savedAt: 1 })
    stored.set(DRAFT_KEY, earlier)
    leave('user_name')
    window.dispatchEvent(new Event('pagehide'))
    keeper.flush()
    expect(stored.get(DRAFT_KEY)).toBe(earlier)
  })

  it('the bot trap is not part of the request', () => {
    key(HONEYPOT_FIELD, 'https://spam.example')
    vi.advanceTimersByTime(DRAFT_PAUSE_MS)
    window.dispatchEvent(new Event('pagehide'))
    expect(writes).toEqual([])
  })

  it('flush saves now; discard forgets the edits not saved yet', () => {
    key('user_phone', '55 1234 5678')
    keeper.flush()
    expect(draft()).toMatchObject({ user_phone: '55 1234 5678' })
    key('user_phone', '55 1234 0000')
    keeper.discard()
    vi.advanceTimersByTime(DRAFT_PAUSE_MS)
    window.dispatchEvent(new Event('pagehide'))
    expect(draft()).toMatchObject({ user_phone: '55 1234 5678' })
  })

  it('an emptied form leaves no draft behind', () => {
    key('user_name', 'Ana')
    leave('user_name')
    key('user_name', '')
    leave('user_name')
    expect(stored.has(DRAFT_KEY)).toBe(false)
  })

  it('once stopped, listens to nothing', () => {
    keeper.stop()
    key('user_name', 'Ana')
    leave('user_name')
    vi.advanceTimersByTime(DRAFT_PAUSE_MS)
    window.dispatchEvent(new Event('pagehide'))
    expect(writes).toEqual([])
  })
})
