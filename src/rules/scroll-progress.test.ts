import { describe, expect, it } from 'vitest'
import { LINE_PATH_LENGTH, scrollProgress, strokeOffset } from './scroll-progress'

describe('scroll-driven line drawing', () => {
  it('starts at 0 when the element enters at the bottom, and stays 0 above the start', () => {
    expect(scrollProgress(800, 600, 800)).toBe(0)
    expect(scrollProgress(2000, 600, 800)).toBe(0)
  })

  it('follows the scroll to 1 when the element leaves at the top', () => {
    expect(scrollProgress(100, 600, 800)).toBeCloseTo(0.5)
    expect(scrollProgress(-600, 600, 800)).toBe(1)
    expect(scrollProgress(-5000, 600, 800)).toBe(1)
  })

  it('hides the whole line at 0 and draws it all at 1', () => {
    expect(strokeOffset(0)).toBe(LINE_PATH_LENGTH)
    expect(strokeOffset(0.25)).toBe(1275)
    expect(strokeOffset(1)).toBe(0)
    expect(strokeOffset(7)).toBe(0)
  })
})
