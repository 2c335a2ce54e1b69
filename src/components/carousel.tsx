import { useId, type ReactNode } from 'react'
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

/**
 * An auto-rotating carousel after the WAI-ARIA APG pattern, as the page is served: the first
 * slide shown, the others inert, the rotation button first. Static markup: browser/carousel.ts
 * finds it by its data-carousel attributes and turns, rotates and stops it without React (no
 * hydration, no render on a tap).
 *
 * The slides sit in a scroll container that snaps to each one (CSS scroll-snap): a turn sets
 * where it scrolls to and the browser moves it.
 */
export function Carousel({ label, labels, intervalMs, slides, className }: CarouselProps) {
  const total = slides.length
  const slidesId = useId()
  return (
    <section
      className={`${styles.carousel} ${className ?? ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      data-carousel={intervalMs}
    >
      <div className={styles.controls}>
        <button
          type="button"
          className={`${styles.control} ${styles.toggle}`}
          aria-label={labels.pause}
          data-label-pause={labels.pause}
          data-label-play={labels.play}
          data-carousel-toggle=""
        >
          <Icon name="pause" className={styles.pauseIcon} />
          <Icon name="play" className={styles.playIcon} />
        </button>
        <div className={styles.controlGroup}>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.previous}
            data-carousel-step={-1}
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
                  aria-current={index === 0 ? 'true' : undefined}
                  data-carousel-dot={index}
                />
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${styles.control} ${styles.arrow}`}
            aria-controls={slidesId}
            aria-label={labels.next}
            data-carousel-step={1}
          >
            <Icon name="chevronRight" />
          </button>
        </div>
      </div>
      <div className={styles.viewport} data-carousel-viewport="">
        {/* Announced only while the slides stand still (browser/carousel.ts). */}
        <div id={slidesId} className={styles.track} aria-live="off">
          {slides.map((slide, index) => (
            <div
              key={slide.id}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={labels.slideOf(index + 1, total)}
              inert={index !== 0}
            >
              {slide.content}
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
