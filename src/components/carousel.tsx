import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { createRotation, type CarouselView } from './carousel-rotation'
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
 *
 * The slides sit in a scroll container that snaps to each one (CSS scroll-snap): a dot, an arrow,
 * a swipe or the rotation sets where it scrolls to and the browser moves it, smoothly unless the
 * visitor prefers less motion; React only marks the slide shown. A turn reads the layout before
 * it writes anything, never after.
 */
export function Carousel({ label, labels, intervalMs, slides, className }: CarouselProps) {
  const total = slides.length
  const [shown, setShown] = useState<CarouselView>({ index: 0, pausedByVisitor: false })
  const rootRef = useRef<HTMLElement>(null)
  const [rotation] = useState(() => createRotation({ count: total, intervalMs, show: setShown }))
  const { attachViewport, attachTrack } = rotation
  const swipeStart = useRef<number | null>(null)
  const slidesId = useId()

  useEffect(() => {
    rotation.start(window.matchMedia('(prefers-reduced-motion: reduce)').matches)
    return rotation.stop
  }, [rotation])

  // Rotation costs nothing when nobody can see it: off screen or in a hidden tab.
  useEffect(() => {
    const root = rootRef.current
    if (!root) return
    let onScreen = true
    const update = () => rotation.apply({ type: 'visible', value: onScreen && !document.hidden })
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
  }, [rotation])

  return (
    // The pointer and focus listeners only pause the rotation; they are not controls.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      ref={rootRef}
      className={`${styles.carousel} ${className ?? ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      onPointerEnter={(event) =>
        event.pointerType === 'mouse' && rotation.apply({ type: 'hover', value: true })
      }
      onPointerLeave={(event) =>
        event.pointerType === 'mouse' && rotation.apply({ type: 'hover', value: false })
      }
      onFocus={() => rotation.apply({ type: 'focus', value: true })}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget))
          rotation.apply({ type: 'focus', value: false })
      }}
    >
      <div className={styles.controls}>
        <button
          type="button"
          className={styles.control}
          aria-label={shown.pausedByVisitor ? labels.play : labels.pause}
          onClick={() => rotation.apply({ type: 'togglePause' })}
        >
          <Icon name={shown.pausedByVisitor ? 'play' : 'pause'} />
        </button>
        <div className={styles.controlGroup}>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.previous}
            onClick={() => rotation.turnBy(-1)}
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
                  aria-current={index === shown.index ? 'true' : undefined}
                  onClick={() => rotation.turnTo(index)}
                />
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.next}
            onClick={() => rotation.turnBy(1)}
          >
            <Icon name="chevronRight" />
          </button>
        </div>
      </div>
      <div
        ref={attachViewport}
        className={styles.viewport}
        onPointerDown={(event) => {
          swipeStart.current = event.clientX
        }}
        onPointerUp={(event) => {
          if (swipeStart.current === null) return
          const distance = event.clientX - swipeStart.current
          swipeStart.current = null
          if (Math.abs(distance) >= SWIPE_THRESHOLD_PX) rotation.turnBy(distance < 0 ? 1 : -1)
        }}
        onPointerCancel={() => {
          swipeStart.current = null
        }}
      >
        {/* React renders the first value; the rotation keeps it (carousel-rotation.ts). */}
        <div id={slidesId} ref={attachTrack} className={styles.track} aria-live="off">
          {slides.map((slide, index) => (
            <div
              key={slide.id}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={labels.slideOf(index + 1, total)}
              inert={index !== shown.index}
            >
              {slide.content}
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
