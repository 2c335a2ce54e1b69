import { afterEach, describe, expect, it, vi } from 'vitest'
import { track } from './analytics'

afterEach(() => {
  delete window.dataLayer
})

describe('track', () => {
  it('pushes to dataLayer and dispatches a DOM event of the same name', () => {
    const listener = vi.fn()
    window.addEventListener('cta_click', listener)
    track({ event: 'cta_click', cta: 'hero' })
    window.removeEventListener('cta_click', listener)
    expect(window.dataLayer).toEqual([{ event: 'cta_click', cta: 'hero' }])
    expect(listener).toHaveBeenCalledTimes(1)
    expect((listener.mock.calls[0]![0] as CustomEvent).detail).toEqual({
      event: 'cta_click',
      cta: 'hero',
    })
  })

  it('keeps what a tag manager pushed before', () => {
    window.dataLayer = [{ 'gtm.start': 1 }]
    track({ event: 'demo_form_start' })
    expect(window.dataLayer).toHaveLength(2)
  })
})
