import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadTagManager, TAG_MANAGER_ORIGIN, whenIdle } from './tag-manager'

afterEach(() => {
  document.head.querySelectorAll('script').forEach((script) => script.remove())
  delete window.dataLayer
  vi.useRealTimers()
})

describe('loadTagManager', () => {
  it('adds the container once, after announcing its start in the data layer', () => {
    window.dataLayer = [{ event: 'cta_click', cta: 'hero' }]
    loadTagManager('GTM-ABC1234')
    loadTagManager('GTM-ABC1234')
    const scripts = document.head.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    expect(scripts[0]?.src).toBe(`${TAG_MANAGER_ORIGIN}/gtm.js?id=GTM-ABC1234`)
    expect(window.dataLayer).toEqual([
      { event: 'cta_click', cta: 'hero' },
      expect.objectContaining({ event: 'gtm.js' }),
    ])
  })
})

describe('whenIdle', () => {
  it('waits for the page to be idle', () => {
    vi.useFakeTimers()
    const task = vi.fn()
    whenIdle(task)
    expect(task).not.toHaveBeenCalled()
    vi.advanceTimersByTime(2000)
    expect(task).toHaveBeenCalledOnce()
  })
})
