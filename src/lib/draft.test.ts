import { describe, expect, it } from 'vitest'
import { safeStorage } from './browser-storage'
import { emptyValues } from './demo-request'
import { clearDraft, DRAFT_KEY, loadDraft, saveDraft } from './draft'

const storage = safeStorage(() => localStorage)

describe('demo request draft', () => {
  it('round-trips what the visitor typed', () => {
    const values = { ...emptyValues(), user_name: 'Ana', message: 'Tenemos 12 estaciones' }
    saveDraft(storage, values)
    expect(loadDraft(storage)).toEqual(values)
    clearDraft(storage)
    expect(loadDraft(storage)).toBeNull()
  })

  it('keeps nothing for an empty form', () => {
    saveDraft(storage, { ...emptyValues(), user_name: 'A' })
    saveDraft(storage, emptyValues())
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })

  it('survives damaged or foreign data', () => {
    localStorage.setItem(DRAFT_KEY, '{not json')
    expect(loadDraft(storage)).toBeNull()
    localStorage.setItem(
      DRAFT_KEY,
      JSON.stringify({ user_name: 42, user_email: 'a@b.co', extra: 'x' }),
    )
    expect(loadDraft(storage)).toEqual({ ...emptyValues(), user_email: 'a@b.co' })
  })

  it('works when storage is unavailable', () => {
    const broken = safeStorage(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    saveDraft(broken, { ...emptyValues(), user_name: 'Ana' })
    expect(loadDraft(broken)).toBeNull()
  })
})
