import { carouselReducer, initialCarouselState, isRotating, wrap } from '../rules/carousel-state'
import type { CarouselAction } from '../rules/carousel-state'
import { afterNextPaint } from './after-next-paint'

const SWIPE_THRESHOLD_PX = 40

/**
 * Drives a prerendered carousel (components/carousel.tsx, found by `data-carousel`, which holds
 * its interval in ms): dots, arrows, swipes and the timed rotation turn it; the pointer over it,
 * focus inside it, being off screen or in a hidden tab stop the rotation, and so does its pause
 * button for good. A turn sets where the slides' snapping container scrolls to, and the browser
 * moves it; the only layout read, its width, comes before any write. Plain DOM, as the header
 * menu: a tap costs a few attribute writes, no render. Returns a function that stops it.
 * @internal its tests use it too
 */
export function enhanceCarousel(root: HTMLElement): () => void {
  const all = <T extends Element>(selector: string) => [...root.querySelectorAll<T>(selector)]
  const slides = all<HTMLElement>('[aria-roledescription="slide"]')
  const dots = all<HTMLElement>('[data-carousel-dot]')
  const toggle = root.querySelector<HTMLElement>('[data-carousel-toggle]')
  const viewport = root.querySelector<HTMLElement>('[data-carousel-viewport]')
  const track = slides[0]?.parentElement
  const intervalMs = Number(root.dataset.carousel)
  const stop = new AbortController()
  const on = (target: EventTarget, type: string, listener: (event: Event) => void) =>
    target.addEventListener(type, listener, { signal: stop.signal })
  let state = initialCarouselState(slides.length)
  let timer: ReturnType<typeof setTimeout> | undefined
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)')
  // A copy of the first slide after the last (made once the page has painted): the turn after
  // the last slide scrolls forward onto it, as every other turn does, and the carousel then
  // stands on the real first slide, which looks the same (see loopBack).
  let loopSlide: HTMLElement | undefined
  let landing: (() => void) | undefined

  const apply = (action: CarouselAction) => {
    const before = state
    state = carouselReducer(before, action)
    if (state.index !== before.index) {
      for (const [index, slide] of slides.entries())
        slide.toggleAttribute('inert', index !== state.index)
      for (const [index, dot] of dots.entries())
        if (index === state.index) dot.setAttribute('aria-current', 'true')
        else dot.removeAttribute('aria-current')
    }
    if (toggle && state.pausedByVisitor !== before.pausedByVisitor) {
      toggle.toggleAttribute('data-paused', state.pausedByVisitor)
      const label = state.pausedByVisitor ? toggle.dataset.labelPlay : toggle.dataset.labelPause
      if (label) toggle.setAttribute('aria-label', label)
    }
    if (state.index !== before.index || isRotating(state) !== isRotating(before)) rotate()
  }

  /** The next turn is timed from the last; the slides are announced only while they stand still. */
  const rotate = () => {
    clearTimeout(timer)
    const rotating = isRotating(state)
    track?.setAttribute('aria-live', rotating ? 'off' : 'polite')
    if (rotating) timer = setTimeout(() => turnTo(state.index + 1, 1), intervalMs)
  }

  /** Moves the slides at once, whatever the CSS says: a jump between two identical views. */
  const jump = (left: number) => {
    if (!viewport) return
    viewport.style.scrollBehavior = 'auto'
    viewport.scrollLeft = left
    viewport.style.removeProperty('scroll-behavior')
  }

  /**
   * After a forward turn onto the copy of the first slide: once the scroll has reached it (the
   * end of the slides), stand on the real first slide instead: the same picture, so nothing
   * moves on screen.
   */
  const loopBack = (slidesWindow: HTMLElement) => {
    const settle = () => {
      slidesWindow.removeEventListener('scroll', arrived)
      landing = undefined
    }
    const arrived = () => {
      const end = slidesWindow.scrollWidth - slidesWindow.clientWidth
      if (slidesWindow.scrollLeft < end - 1) return
      settle()
      jump(0)
    }
    slidesWindow.addEventListener('scroll', arrived, { signal: stop.signal })
    landing = settle
  }

  /**
   * Shows a slide: the browser scrolls to it, smoothly unless reduced motion (the CSS). A step
   * (an arrow, a swipe, the rotation) past either end goes on in the same direction: from the
   * last slide forward onto the copy of the first, from the first back from that copy to the
   * last, so the slides loop as a ring and never rewind across the others.
   */
  const turnTo = (index: number, step: 0 | 1 | -1 = 0) => {
    const target = wrap(index, slides.length)
    if (viewport) {
      const width = viewport.clientWidth
      const copyLeft = slides.length * width
      // A turn while the slides are still on their way to the copy: stand on the first now.
      if (landing) {
        landing()
        jump(0)
      }
      const loops = loopSlide !== undefined && !reducedMotion.matches
      if (loops && step === 1 && target === 0 && state.index === slides.length - 1) {
        viewport.scrollLeft = copyLeft
        loopBack(viewport)
      } else {
        if (loops && step === -1 && state.index === 0 && target === slides.length - 1)
          jump(copyLeft)
        viewport.scrollLeft = target * width
      }
    }
    apply({ type: 'goTo', index: target })
  }

  on(root, 'click', (event) => {
    const control = (event.target as Element).closest<HTMLElement>('button')
    if (!control) return
    const { carouselDot: dot, carouselStep: step } = control.dataset
    if (control === toggle) apply({ type: 'togglePause' })
    else if (dot !== undefined) turnTo(Number(dot))
    else if (step !== undefined) turnTo(state.index + Number(step), Number(step) < 0 ? -1 : 1)
  })
  // The pointer and focus only pause the rotation.
  const hover = (value: boolean) => (event: Event) => {
    if ((event as PointerEvent).pointerType === 'mouse') apply({ type: 'hover', value })
  }
  on(root, 'pointerenter', hover(true))
  on(root, 'pointerleave', hover(false))
  on(root, 'focusin', () => apply({ type: 'focus', value: true }))
  on(root, 'focusout', (event) => {
    if (!root.contains((event as FocusEvent).relatedTarget as Node | null))
      apply({ type: 'focus', value: false })
  })
  // A swipe (a finger or a mouse drag) turns it; vertical panning stays the browser's.
  let swipeStart: number | null = null
  if (viewport) {
    on(viewport, 'pointerdown', (event) => (swipeStart = (event as PointerEvent).clientX))
    on(viewport, 'pointercancel', () => (swipeStart = null))
    on(viewport, 'pointerup', (event) => {
      if (swipeStart === null) return
      const distance = (event as PointerEvent).clientX - swipeStart
      swipeStart = null
      if (Math.abs(distance) < SWIPE_THRESHOLD_PX) return
      const step = distance < 0 ? 1 : -1
      turnTo(state.index + step, step)
    })
  }

  // Rotation costs nothing when nobody can see it: off screen or in a hidden tab. Within a
  // screen's height of the viewport counts as on screen, so the slides are already turning
  // when the visitor scrolls to them.
  let onScreen = true
  const visible = () => apply({ type: 'visible', value: onScreen && !document.hidden })
  const observer = new IntersectionObserver(
    ([entry]) => {
      onScreen = entry?.isIntersecting ?? true
      visible()
    },
    { rootMargin: '100% 0px' },
  )
  observer.observe(root)
  on(document, 'visibilitychange', visible)

  if (reducedMotion.matches) apply({ type: 'pause' })
  // Once the page has painted: the first 3000 ms count from the slide the visitor sees. The
  // later slides' pictures are lazy in the HTML, so the page loads as before; they are read
  // then, well before the first turn, instead of as their slide turns in (which made the turn,
  // or a tap on an arrow, wait for the picture to be built).
  const cancelStart = afterNextPaint(() => {
    rotate()
    for (const picture of all('img[loading="lazy"]')) picture.removeAttribute('loading')
    if (slides.length > 1 && slides[0]) track?.append((loopSlide = copyOfSlide(slides[0])))
  })

  return () => {
    stop.abort()
    observer.disconnect()
    clearTimeout(timer)
    cancelStart()
    loopSlide?.remove()
  }
}

/**
 * The copy of a slide that the loop scrolls onto: seen, but not a slide for anyone else. It
 * has no role, name or ids, is hidden from assistive technology and takes no focus or clicks,
 * so the carousel still has its four slides for screen readers, tests and the pagination.
 */
function copyOfSlide(slide: HTMLElement): HTMLElement {
  const copy = slide.cloneNode(true) as HTMLElement
  for (const name of ['role', 'aria-roledescription', 'aria-label', 'id'])
    copy.removeAttribute(name)
  for (const element of copy.querySelectorAll('[id]')) element.removeAttribute('id')
  copy.setAttribute('aria-hidden', 'true')
  copy.setAttribute('data-carousel-copy', '')
  copy.inert = true
  return copy
}

/** Every carousel of the page. */
export function enhanceCarousels(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>('[data-carousel]')) enhanceCarousel(root)
}
