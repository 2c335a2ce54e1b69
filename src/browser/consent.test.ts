import { afterEach, describe, expect, it } from 'vitest'
import { safeStorage } from './storage'
import {
  CONSENT_KEY,
  consentSignals,
  deleteTagCookies,
  gtag,
  readConsent,
  saveConsent,
} from './consent'

const storage = safeStorage(() => localStorage)
const MARCH_2 = new Date('2026-03-02T09:00:00Z').getTime()

afterEach(() => {
  localStorage.clear()
  delete window.dataLayer
})

describe('the stored consent choice', () => {
  it('is remembered for six months, then asked again', () => {
    saveConsent(storage, 'granted', MARCH_2)
    expect(readConsent(storage, new Date('2026-09-01T09:00:00Z').getTime())).toBe('granted')
    expect(readConsent(storage, new Date('2026-09-02T09:00:00Z').getTime())).toBeNull()
    expect(localStorage.getItem(CONSENT_KEY)).toBeNull()
  })

  it('keeps a rejection the same way', () => {
    saveConsent(storage, 'denied', MARCH_2)
    expect(readConsent(storage, MARCH_2 + 1000)).toBe('denied')
  })

  it('forgets anything damaged, foreign or dated in the future', () => {
    for (const stored of [
      '{oops',
      '"granted"',
      JSON.stringify({ choice: 'maybe', savedAt: MARCH_2 }),
      JSON.stringify({ choice: 'granted' }),
      JSON.stringify({ choice: 'granted', savedAt: MARCH_2 + 60_000 }),
    ]) {
      localStorage.setItem(CONSENT_KEY, stored)
      expect(readConsent(storage, MARCH_2), stored).toBeNull()
      expect(localStorage.getItem(CONSENT_KEY)).toBeNull()
    }
  })
})

describe('gtag', () => {
  it('pushes Consent Mode commands as arguments objects, as the tag manager reads them', () => {
    gtag('consent', 'default', consentSignals('denied'))
    const [entry] = window.dataLayer ?? []
    expect(Object.prototype.toString.call(entry)).toBe('[object Arguments]')
    expect(Array.from(entry as ArrayLike<unknown>)).toEqual([
      'consent',
      'default',
      {
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        analytics_storage: 'denied',
      },
    ])
  })
})

describe('deleteTagCookies', () => {
  it('deletes the cookies Google tags set and leaves the others', () => {
    document.cookie = '_ga=GA1.1.123.456; Path=/'
    document.cookie = '_ga_ABC123=GS1.1.789; Path=/'
    document.cookie = '_gcl_au=1.1.42; Path=/'
    document.cookie = 'preferencia=oscuro; Path=/'
    deleteTagCookies()
    expect(document.cookie).toBe('preferencia=oscuro')
  })
})
