import { act, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { enhanceCarousels } from '../browser/carousel'
import { DemoCarousel } from './demo-carousel'

beforeEach(() => {
  vi.useFakeTimers()
  // Reduced motion keeps the slides still while the test lets time pass.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query }))
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  )
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('DemoCarousel', () => {
  it('reads the later pictures once the page has painted, before their slides turn in', () => {
    const { container } = render(<DemoCarousel />)
    const pictures = [...container.querySelectorAll('img')]
    expect(pictures.length).toBeGreaterThan(1)
    // As prerendered and when the page's script starts: every picture lazily, so none is built
    // before the first paint.
    enhanceCarousels()
    expect(pictures.map((picture) => picture.getAttribute('loading'))).toEqual(
      pictures.map(() => 'lazy'),
    )

    act(() => vi.advanceTimersToNextFrame())
    act(() => vi.runOnlyPendingTimers())
    for (const picture of pictures) expect(picture).not.toHaveAttribute('loading')
  })
})
