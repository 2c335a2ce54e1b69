import { render } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LINE_TWEEN_SECONDS } from '../rules/scroll-progress'
import { drawLinesOnScroll } from '../browser/line-draw'
import { LineDraw } from './line-draw'

const prefersReducedMotion = (reduce: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: reduce, media: query }))

afterEach(() => vi.unstubAllGlobals())

describe('LineDraw', () => {
  it(`tweens the stroke between scroll positions over LINE_TWEEN_SECONDS (${LINE_TWEEN_SECONDS} s)`, () => {
    prefersReducedMotion(false)
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    )
    const { container } = render(<LineDraw />)
    drawLinesOnScroll(container.querySelector('svg')!)
    const paths = [...container.querySelectorAll('path')]
    expect(paths.length).toBeGreaterThan(0)
    for (const path of paths) expect(path.style.transitionDuration).toBe(`${LINE_TWEEN_SECONDS}s`)
  })

  it('has no tween under reduced motion, where the lines are drawn whole by CSS', () => {
    prefersReducedMotion(true)
    const { container } = render(<LineDraw />)
    drawLinesOnScroll(container.querySelector('svg')!)
    for (const path of container.querySelectorAll('path'))
      expect(path.style.transitionDuration).toBe('')
  })
})
