import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadTagManagerWhenIdle, TAG_MANAGER_ORIGIN } from './tag-manager'

afterEach(() => {
  document.head.querySelectorAll('script').forEach((script) => script.remove())
  delete window.dataLayer
  vi.useRealTimers()
})

describe('loadTagManagerWhenIdle', () => {
  it('loads nothing when no container is configured', () => {
    loadTagManagerWhenIdle(null)
    expect(document.querySelectorAll('script')).toHaveLength(0)
  })

  it('loads the configured container only once the page is idle', () => {
    vi.useFakeTimers()
    loadTagManagerWhenIdle('GTM-ABC1234')
    expect(document.querySelectorAll('script')).toHaveLength(0)
    vi.advanceTimersByTime(2000)
    const script = document.head.querySelector('script')
    expect(script?.src).toBe(`${TAG_MANAGER_ORIGIN}/gtm.js?id=GTM-ABC1234`)
    expect(window.dataLayer?.[0]).toMatchObject({ event: 'gtm.js' })
  })
})
