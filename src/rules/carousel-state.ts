/**
 * The carousel's rotation rules (WAI-ARIA APG carousel pattern), kept pure for testing:
 * rotation runs only when nobody paused it, the pointer is not over it, focus is not inside,
 * it is on screen and the tab is visible.
 */
type CarouselState = {
  readonly index: number
  readonly count: number
  /** The visitor pressed pause (or prefers reduced motion); only play resumes. */
  readonly pausedByVisitor: boolean
  readonly hovered: boolean
  readonly focused: boolean
  readonly visible: boolean
}

export type CarouselAction =
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'goTo'; index: number }
  | { type: 'togglePause' }
  | { type: 'pause' }
  | { type: 'hover'; value: boolean }
  | { type: 'focus'; value: boolean }
  | { type: 'visible'; value: boolean }

export const initialCarouselState = (count: number): CarouselState => ({
  index: 0,
  count,
  pausedByVisitor: false,
  hovered: false,
  focused: false,
  visible: true,
})

/** The slide `index` lands on, looping both ways. */
export const wrap = (index: number, count: number) => ((index % count) + count) % count

export function carouselReducer(state: CarouselState, action: CarouselAction): CarouselState {
  const next = change(state, action)
  // Nothing changed, nothing to render: focus moving between the carousel's own buttons, or a
  // scroll that settled on the slide already shown.
  return (Object.keys(next) as (keyof CarouselState)[]).every((key) => next[key] === state[key])
    ? state
    : next
}

function change(state: CarouselState, action: CarouselAction): CarouselState {
  switch (action.type) {
    case 'next':
      return { ...state, index: wrap(state.index + 1, state.count) }
    case 'previous':
      return { ...state, index: wrap(state.index - 1, state.count) }
    case 'goTo':
      return { ...state, index: wrap(action.index, state.count) }
    case 'togglePause':
      return { ...state, pausedByVisitor: !state.pausedByVisitor }
    case 'pause':
      return { ...state, pausedByVisitor: true }
    case 'hover':
      return { ...state, hovered: action.value }
    case 'focus':
      return { ...state, focused: action.value }
    case 'visible':
      return { ...state, visible: action.value }
  }
}

export const isRotating = (state: CarouselState) =>
  !state.pausedByVisitor && !state.hovered && !state.focused && state.visible
