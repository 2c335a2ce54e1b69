import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { carousel } from '../copy/home'
import { enhanceCarousel } from '../browser/carousel'
import { Carousel } from './carousel'

const slides = ['Uno', 'Dos', 'Tres', 'Cuatro'].map((title) => ({
  id: title,
  content: <h3>{title}</h3>,
}))

let reducedMotion = false
beforeEach(() => {
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['setTimeout', 'clearTimeout', 'Date', 'requestAnimationFrame', 'cancelAnimationFrame'],
  })
  reducedMotion = false
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reducedMotion && query.includes('reduce'),
    media: query,
  }))
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        this.callback(
          [{ isIntersecting: true } as IntersectionObserverEntry],
          this as unknown as IntersectionObserver,
        )
      }
      disconnect() {}
    },
  )
})
const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const current = () =>
  screen.getAllByRole('group', { hidden: true }).find((slide) => !slide.hasAttribute('inert'))!

/** The carousel as the page serves it, driven as the page's script drives it. */
function renderCarousel() {
  const { container } = render(
    <Carousel label="Funciones" labels={carousel.controls} intervalMs={3000} slides={slides} />,
  )
  stops.push(enhanceCarousel(container.querySelector('[data-carousel]')!))
  // The page paints; the rotation counts from there.
  act(() => {
    vi.advanceTimersToNextFrame()
    vi.runOnlyPendingTimers()
  })
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
}

/** jsdom lays nothing out: the slides' window is 320 px wide here, and each scroll is recorded. */
function recordScrolls(): number[] {
  const scrolledTo: number[] = []
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320)
  vi.spyOn(Element.prototype, 'scrollLeft', 'set').mockImplementation((left: number) =>
    scrolledTo.push(left),
  )
  return scrolledTo
}

describe('Carousel', () => {
  it('rotates every interval and loops', () => {
    renderCarousel()
    expect(current()).toHaveAccessibleName('1 de 4')
    for (const expected of ['2 de 4', '3 de 4', '4 de 4', '1 de 4']) {
      act(() => void vi.advanceTimersByTime(3000))
      expect(current()).toHaveAccessibleName(expected)
    }
  })

  it('is announced politely only when it stops rotating', async () => {
    const user = renderCarousel()
    const track = current().parentElement!
    expect(track).toHaveAttribute('aria-live', 'off')
    await user.click(screen.getByRole('button', { name: carousel.controls.pause }))
    expect(track).toHaveAttribute('aria-live', 'polite')
  })

  it('moves with the arrows and the dots', async () => {
    const user = renderCarousel()
    await user.click(screen.getByRole('button', { name: carousel.controls.previous }))
    expect(current()).toHaveAccessibleName('4 de 4')
    await user.click(screen.getByRole('button', { name: 'Ir a la diapositiva 2' }))
    expect(current()).toHaveAccessibleName('2 de 4')
    expect(screen.getByRole('button', { name: 'Ir a la diapositiva 2' })).toHaveAttribute(
      'aria-current',
      'true',
    )
  })

  it('starts paused for visitors who prefer less motion', () => {
    reducedMotion = true
    renderCarousel()
    expect(screen.getByRole('button', { name: carousel.controls.play })).toBeInTheDocument()
    act(() => void vi.advanceTimersByTime(9000))
    expect(current()).toHaveAccessibleName('1 de 4')
  })

  it('turns by setting where the browser scrolls, one slide width per slide', async () => {
    const scrolledTo = recordScrolls()
    const user = renderCarousel()
    await user.click(screen.getByRole('button', { name: 'Ir a la diapositiva 3' }))
    await user.click(screen.getByRole('button', { name: carousel.controls.next }))
    expect(scrolledTo).toEqual([640, 960])
  })

  it('loops forward: past the last slide onto a copy of the first, then stands on the first', async () => {
    const scrolledTo = recordScrolls()
    const user = renderCarousel()
    const viewport = current().parentElement!.parentElement!
    // The copy: seen at the end of the slides, but no slide for assistive technology.
    const copy = viewport.querySelector('[data-carousel-copy]')!
    expect(copy).toHaveAttribute('aria-hidden', 'true')
    expect(copy).toHaveProperty('inert', true)
    expect(copy).not.toHaveAttribute('role')
    expect(screen.getAllByRole('group', { hidden: true })).toHaveLength(4)

    await user.click(screen.getByRole('button', { name: 'Ir a la diapositiva 4' }))
    await user.click(screen.getByRole('button', { name: carousel.controls.next }))
    // Forward onto the copy at 4 × 320 px, as every other turn goes forward...
    expect(scrolledTo).toEqual([960, 1280])
    expect(current()).toHaveAccessibleName('1 de 4')
    // ...and once the scroll has arrived, the real first slide in its place, at once.
    act(() => void viewport.dispatchEvent(new Event('scroll')))
    expect(scrolledTo).toEqual([960, 1280, 0])
    expect(viewport.style.scrollBehavior).toBe('')

    // Back from the first: from the copy (the same picture) to the last, no slide between.
    await user.click(screen.getByRole('button', { name: carousel.controls.previous }))
    expect(scrolledTo).toEqual([960, 1280, 0, 1280, 960])
    expect(current()).toHaveAccessibleName('4 de 4')
  })

  it('the pointer and focus stop the rotation and make it polite; leaving resumes it', async () => {
    const user = renderCarousel()
    const track = current().parentElement!
    await user.hover(screen.getByRole('region', { name: 'Funciones' }))
    act(() => screen.getByRole('button', { name: 'Ir a la diapositiva 1' }).focus())
    expect(track).toHaveAttribute('aria-live', 'polite')
    act(() => void vi.advanceTimersByTime(9000))
    expect(current()).toHaveAccessibleName('1 de 4')
    await user.unhover(screen.getByRole('region', { name: 'Funciones' }))
    act(() => screen.getByRole('button', { name: 'Ir a la diapositiva 1' }).blur())
    expect(track).toHaveAttribute('aria-live', 'off')
    act(() => void vi.advanceTimersByTime(3000))
    expect(current()).toHaveAccessibleName('2 de 4')
  })

  it('the pause button says what it will do and stops the rotation for good', async () => {
    const user = renderCarousel()
    await user.click(screen.getByRole('button', { name: carousel.controls.pause }))
    const play = screen.getByRole('button', { name: carousel.controls.play })
    expect(play).toHaveAttribute('data-paused')
    act(() => play.blur())
    act(() => void vi.advanceTimersByTime(9000))
    expect(current()).toHaveAccessibleName('1 de 4')
  })

  it('follows a swipe of 40 px or more', () => {
    renderCarousel()
    const viewport = current().parentElement!.parentElement!
    const swipe = (from: number, to: number) => {
      viewport.dispatchEvent(new PointerEvent('pointerdown', { clientX: from, bubbles: true }))
      viewport.dispatchEvent(new PointerEvent('pointerup', { clientX: to, bubbles: true }))
    }
    act(() => swipe(300, 100))
    expect(current()).toHaveAccessibleName('2 de 4')
    act(() => swipe(100, 300))
    expect(current()).toHaveAccessibleName('1 de 4')
    act(() => swipe(200, 170))
    expect(current()).toHaveAccessibleName('1 de 4')
  })
})
