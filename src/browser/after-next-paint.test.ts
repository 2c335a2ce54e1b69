import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { afterNextPaint } from './after-next-paint'

beforeEach(() =>
  vi.useFakeTimers({
    toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
  }),
)
afterEach(() => vi.useRealTimers())

describe('afterNextPaint', () => {
  it('runs the work only after the next frame, and never once cancelled', () => {
    const work = vi.fn()
    afterNextPaint(work)
    const cancelled = vi.fn()
    const cancel = afterNextPaint(cancelled)
    vi.advanceTimersToNextFrame()
    expect(work).not.toHaveBeenCalled()
    cancel()
    vi.runOnlyPendingTimers()
    expect(work).toHaveBeenCalledOnce()
    expect(cancelled).not.toHaveBeenCalled()
  })
})
