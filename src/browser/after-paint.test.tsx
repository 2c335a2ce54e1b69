import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAfterPaint } from './after-paint'

beforeEach(() =>
  vi.useFakeTimers({
    toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
  }),
)
afterEach(() => vi.useRealTimers())

/** The frame is painted between the animation frame callback and the task queued from it. */
const paintOneFrame = () => act(() => vi.advanceTimersToNextFrame())
const runQueuedTasks = () => act(() => vi.runOnlyPendingTimers())

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
