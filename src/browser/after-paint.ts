import { useEffect, useState } from 'react'
import { afterNextPaint } from './after-next-paint'

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
