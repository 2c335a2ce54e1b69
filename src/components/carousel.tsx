import { useEffect, useId, useReducer, useRef, type ReactNode } from 'react'
import { carouselReducer, initialCarouselState, isRotating } from '../rules/carousel-state'
import { Icon } from './icon'
import styles from './carousel.module.css'

type CarouselLabels = {
  previous: string
  next: string
  pause: string
  play: string
  pagination: string
  goTo: (n: number) => string
  slideOf: (n: number, total: number) => string
}

type CarouselProps = {
  label: string
  labels: CarouselLabels
  intervalMs: number
  slides: readonly { id: string; content: ReactNode }[]
  className?: string
}

const SWIPE_THRESHOLD_PX = 40

/**
 * An auto-rotating carousel after the WAI-ARIA APG pattern: the rotation button comes first,
 * rotation stops under the pointer and while focus is inside, and the slide change is
 * announced only when the visitor is driving it.
 */
export function Carousel({ label, labels, intervalMs, slides, className }: CarouselProps) {
  const [state, dispatch] = useReducer(carouselReducer, slides.length, initialCarouselState)
  const rootRef = useRef<HTMLElement>(null)
  const swipeStart = useRef<number | null>(null)
  const slidesId = useId()
  const rotating = isRotating(state)

  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) dispatch({ type: 'pause' })
  }, [])

  useEffect(() => {
    if (!rotating) return
    const timer = setTimeout(() => dispatch({ type: 'next' }), intervalMs)
    return () => clearTimeout(timer)
  }, [rotating, intervalMs, state.index])

  // Rotation costs nothing when nobody can see it: off screen or in a hidden tab.
  useEffect(() => {
    const root = rootRef.current
    if (!root) return
    let onScreen = true
    const update = () => dispatch({ type: 'visible', value: onScreen && !document.hidden })
    // Within a screen's height of the viewport counts as on screen, so the slides are already
    // turning when the visitor scrolls to them.
    const observer = new IntersectionObserver(
      ([entry]) => {
        onScreen = entry?.isIntersecting ?? true
        update()
      },
      { rootMargin: '100% 0px' },
    )
    observer.observe(root)
    document.addEventListener('visibilitychange', update)
    return () => {
      observer.disconnect()
      document.removeEventListener('visibilitychange', update)
    }
  }, [])

  const total = slides.length
  return (
    // The pointer and focus listeners only pause the rotation; they are not controls.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      ref={rootRef}
      className={`${styles.carousel} ${className ?? ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      onPointerEnter={(event) =>
        event.pointerType === 'mouse' && dispatch({ type: 'hover', value: true })
      }
      onPointerLeave={(event) =>
        event.pointerType === 'mouse' && dispatch({ type: 'hover', value: false })
      }
      onFocus={() => dispatch({ type: 'focus', value: true })}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget))
          dispatch({ type: 'focus', value: false })
      }}
    >
      <div className={styles.controls}>
        <button
          type="button"
          className={styles.control}
          aria-label={state.pausedByVisitor ? labels.play : labels.pause}
          onClick={() => dispatch({ type: 'togglePause' })}
        >
          <Icon name={state.pausedByVisitor ? 'play' : 'pause'} />
        </button>
        <div className={styles.controlGroup}>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.previous}
            onClick={() => dispatch({ type: 'previous' })}
          >
            <Icon name="chevronLeft" />
          </button>
          <ul className={styles.dots} aria-label={labels.pagination}>
            {slides.map((slide, index) => (
              <li key={slide.id}>
                <button
                  type="button"
                  className={styles.dot}
                  aria-controls={slidesId}
                  aria-label={labels.goTo(index + 1)}
                  aria-current={index === state.index ? 'true' : undefined}
                  onClick={() => dispatch({ type: 'goTo', index })}
                />
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.next}
            onClick={() => dispatch({ type: 'next' })}
          >
            <Icon name="chevronRight" />
          </button>
        </div>
      </div>
      <div
        className={styles.viewport}
        onPointerDown={(event) => {
          swipeStart.current = event.clientX
        }}
        onPointerUp={(event) => {
          if (swipeStart.current === null) return
          const distance = event.clientX - swipeStart.current
          swipeStart.current = null
          if (Math.abs(distance) >= SWIPE_THRESHOLD_PX) {
            dispatch({ type: distance < 0 ? 'next' : 'previous' })
          }
        }}
        onPointerCancel={() => {
          swipeStart.current = null
        }}
      >
        <div
          id={slidesId}
          className={styles.track}
          aria-live={rotating ? 'off' : 'polite'}
          // Set through the DOM after hydration only (index 0 needs none), so the prerendered
          // HTML carries no style attribute for the CSP to refuse.
          style={state.index > 0 ? { transform: `translateX(-${state.index * 100}%)` } : undefined}
        >
          {slides.map((slide, index) => (
            <div
              key={slide.id}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={labels.slideOf(index + 1, total)}
              inert={index !== state.index}
            >
              {slide.content}
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
