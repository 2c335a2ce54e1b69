import { afterEach, describe, expect, it, vi } from 'vitest'
import { safeStorage } from '../browser/storage'
import { emptyValues } from './demo-request'
import { clearDraft, DRAFT_KEY, DRAFT_MAX_AGE_MS, loadDraft, saveDraft } from './draft'
import { keyForRequest } from './draft-key'

const storage = safeStorage(() => localStorage)
const HOUR = 60 * 60 * 1000

afterEach(() => {
  vi.useRealTimers()
  localStorage.clear()
})

describe('demo request draft', () => {
  it('round-trips what the visitor typed', () => {
    const values = { ...emptyValues(), user_name: 'Ana', message: 'Tenemos 12 estaciones' }
    saveDraft(storage, values)
    expect(loadDraft(storage)).toEqual(values)
    clearDraft(storage)
    expect(loadDraft(storage)).toBeNull()
  })

  it('keeps the Idempotency-Key with the draft across saves and reloads, until it is sent', () => {
    const values = { ...emptyValues(), user_name: 'Ana' }
    saveDraft(storage, values)
    let made = 0
    const newKey = () => `key-${++made}`
    expect(keyForRequest(storage, '{"user_name":"Ana"}', newKey)).toBe('key-1')
    saveDraft(storage, values)
    expect(loadDraft(storage)).toEqual(values)
    expect(keyForRequest(storage, '{"user_name":"Ana"}', newKey)).toBe('key-1')
    expect(keyForRequest(storage, '{"user_name":"Ana María"}', newKey)).toBe('key-2')
    clearDraft(storage)
    expect(keyForRequest(storage, '{"user_name":"Ana María"}', newKey)).toBe('key-3')
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
      JSON.stringify({ user_name: 42, user_email: 'a@b.co', extra: 'x', savedAt: Date.now() }),
    )
    expect(loadDraft(storage)).toEqual({ ...emptyValues(), user_email: 'a@b.co' })
  })

  it('expires 24 hours after the last edit, and is deleted from the browser', () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T09:00:00Z') })
    const values = { ...emptyValues(), user_name: 'Ana', user_phone: '+52 55 1234 5678' }
    saveDraft(storage, values)
    vi.advanceTimersByTime(20 * HOUR)
    expect(loadDraft(storage)).toEqual(values)
    saveDraft(storage, { ...values, user_group: 'Grupo Altamar' })
    vi.advanceTimersByTime(DRAFT_MAX_AGE_MS - 1)
    expect(loadDraft(storage)).toEqual({ ...values, user_group: 'Grupo Altamar' })
    vi.advanceTimersByTime(1)
    expect(loadDraft(storage)).toBeNull()
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })

  it('deletes a draft with no time or a time in the future', () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T09:00:00Z') })
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ user_name: 'Ana' }))
    expect(loadDraft(storage)).toBeNull()
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
    localStorage.setItem(
      DRAFT_KEY,
      JSON.stringify({ user_name: 'Ana', savedAt: Date.now() + 2 * HOUR }),
    )
    expect(loadDraft(storage)).toBeNull()
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })

  it('works when storage is unavailable', () => {
    const broken = safeStorage(() => {
      throw new DOMException('denied', 'SecurityError')
    })
    saveDraft(broken, { ...emptyValues(), user_name: 'Ana' })
    expect(loadDraft(broken)).toBeNull()
  })
})
