import { describe, expect, it } from 'vitest'
import {
  carouselReducer,
  initialCarouselState,
  isRotating,
  type CarouselAction,
} from './carousel-state'

const run = (...actions: CarouselAction[]) =>
  actions.reduce(carouselReducer, initialCarouselState(4))

describe('carousel state', () => {
  it('loops forwards and backwards', () => {
    expect(run({ type: 'next' }, { type: 'next' }, { type: 'next' }, { type: 'next' }).index).toBe(
      0,
    )
    expect(run({ type: 'previous' }).index).toBe(3)
    expect(run({ type: 'goTo', index: 2 }).index).toBe(2)
  })

  it('rotates by default', () => {
    expect(isRotating(run())).toBe(true)
  })

  it('stops while hovered or focused and resumes after', () => {
    expect(isRotating(run({ type: 'hover', value: true }))).toBe(false)
    expect(isRotating(run({ type: 'hover', value: true }, { type: 'hover', value: false }))).toBe(
      true,
    )
    expect(isRotating(run({ type: 'focus', value: true }))).toBe(false)
    expect(isRotating(run({ type: 'focus', value: true }, { type: 'focus', value: false }))).toBe(
      true,
    )
  })

  it('stays stopped once the visitor pauses, whatever the pointer and focus do', () => {
    const paused = run(
      { type: 'focus', value: true },
      { type: 'togglePause' },
      { type: 'focus', value: false },
      { type: 'hover', value: true },
      { type: 'hover', value: false },
    )
    expect(isRotating(paused)).toBe(false)
    expect(isRotating(carouselReducer(paused, { type: 'togglePause' }))).toBe(true)
  })

  it('stops off screen', () => {
    expect(isRotating(run({ type: 'visible', value: false }))).toBe(false)
  })

  it('answers an action that changes nothing with the same state, so nothing renders', () => {
    const focused = run({ type: 'focus', value: true }, { type: 'goTo', index: 2 })
    expect(carouselReducer(focused, { type: 'focus', value: true })).toBe(focused)
    expect(carouselReducer(focused, { type: 'goTo', index: 2 })).toBe(focused)
    expect(carouselReducer(focused, { type: 'goTo', index: 6 })).toBe(focused)
    expect(carouselReducer(focused, { type: 'goTo', index: 3 })).not.toBe(focused)
  })
})
