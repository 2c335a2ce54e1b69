import { useEffect, useState } from 'react'

/**
 * Runs `work` once the browser has painted the current frame: a requestAnimationFrame callback
 * runs just before that paint, and a task queued from it runs just after. Work that the visitor
 * does not need to see in the frame that answers a tap goes here, so the answer paints first.
 * Returns a function that cancels whatever has not run yet.
 */
export function afterNextPaint(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(work, 0)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/**
 * `active`, one painted frame late when it turns true (at once when it turns false): for the
 * heavy part of something that opens, such as the player inside a popup.
 */
export function useAfterPaint(active: boolean): boolean {
  const [painted, setPainted] = useState(false)
  useEffect(() => {
    if (!active) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- closing must drop it at once
      setPainted(false)
      return
    }
    return afterNextPaint(() => setPainted(true))
  }, [active])
  return active && painted
}
