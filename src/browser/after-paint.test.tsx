import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { afterNextPaint, useAfterPaint } from './after-paint'

beforeEach(() =>
  vi.useFakeTimers({
    toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
  }),
)
afterEach(() => vi.useRealTimers())

/** The frame is painted between the animation frame callback and the task queued from it. */
const paintOneFrame = () => act(() => vi.advanceTimersToNextFrame())
const runQueuedTasks = () => act(() => vi.runOnlyPendingTimers())

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

function Popup({ open }: { open: boolean }) {
  const playerShown = useAfterPaint(open)
  return <p>{playerShown ? 'player' : 'frame only'}</p>
}

describe('useAfterPaint', () => {
  it('turns true one painted frame after its input, and false at once', () => {
    const { rerender } = render(<Popup open={false} />)
    rerender(<Popup open />)
    expect(screen.getByText('frame only')).toBeInTheDocument()
    paintOneFrame()
    runQueuedTasks()
    expect(screen.getByText('player')).toBeInTheDocument()
    rerender(<Popup open={false} />)
    expect(screen.getByText('frame only')).toBeInTheDocument()
  })
})
