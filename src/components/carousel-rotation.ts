import {
  carouselReducer,
  initialCarouselState,
  isRotating,
  wrap,
  type CarouselAction,
} from '../rules/carousel-state'

/** What the carousel renders: the slide shown and the pause button's state. */
export type CarouselView = { index: number; pausedByVisitor: boolean }

type RotationOptions = {
  count: number
  intervalMs: number
  /** Renders what changed for the visitor (React state). */
  show: (view: CarouselView) => void
}

/**
 * The carousel's state outside React, and what follows from it: the next automatic turn, the
 * live region, and the scroll to the slide shown. Only a change of slide or of the pause button
 * renders; the pointer, focus and visibility (which stop and resume the rotation) render
 * nothing. A turn reads the layout once, before it writes anything.
 */
export function createRotation({ count, intervalMs, show }: RotationOptions) {
  let state = initialCarouselState(count)
  let timer: ReturnType<typeof setTimeout> | undefined
  // The scroll container of the slides (it snaps to each one), and the element whose aria-live
  // announces them while they stand still; given as callback refs.
  let viewport: HTMLElement | null = null
  let track: HTMLElement | null = null

  const rotate = () => {
    clearTimeout(timer)
    const rotating = isRotating(state)
    track?.setAttribute('aria-live', rotating ? 'off' : 'polite')
    if (rotating) timer = setTimeout(() => turnTo(state.index + 1), intervalMs)
  }

  const apply = (action: CarouselAction) => {
    const before = state
    state = carouselReducer(before, action)
    if (state === before) return
    if (state.index !== before.index || state.pausedByVisitor !== before.pausedByVisitor)
      show({ index: state.index, pausedByVisitor: state.pausedByVisitor })
    if (state.index !== before.index || isRotating(state) !== isRotating(before)) rotate()
  }

  /** Shows a slide: the browser scrolls to it (smoothly, unless reduced motion: the CSS). */
  function turnTo(index: number) {
    const target = wrap(index, count)
    if (viewport) viewport.scrollLeft = target * viewport.clientWidth
    apply({ type: 'goTo', index: target })
  }

  return {
    attachViewport: (element: HTMLElement | null) => void (viewport = element),
    attachTrack: (element: HTMLElement | null) => void (track = element),
    apply,
    turnTo,
    turnBy: (step: number) => turnTo(state.index + step),
    /** Starts rotating (paused at once for visitors who prefer less motion). */
    start: (reducedMotion: boolean) => {
      if (reducedMotion) apply({ type: 'pause' })
      rotate()
    },
    stop: () => clearTimeout(timer),
  }
}
