import { Carousel } from '../components/carousel'
import { LineDraw } from '../components/line-draw'
import { carousel } from '../copy/home'
import section from './section.module.css'
import styles from './demo-carousel.module.css'

/**
 * Spec: the demo carousel advances every 3000 ms.
 * @internal the journeys time the carousel by it
 */
export const CAROUSEL_INTERVAL_MS = 3000

export function DemoCarousel() {
  const total = carousel.slides.length
  return (
    <section
      className={`${section.section} ${section.light} ${styles.section}`}
      aria-labelledby="como-funciona"
    >
      <LineDraw />
      <div className={`container ${styles.inner}`}>
        <div className={section.intro}>
          <h2 id="como-funciona" className={section.heading}>
            {carousel.heading}
          </h2>
        </div>
        <Carousel
          label={carousel.label}
          labels={carousel.controls}
          intervalMs={CAROUSEL_INTERVAL_MS}
          slides={carousel.slides.map((slide, index) => ({
            id: slide.id,
            content: (
              <article className={styles.slide}>
                {/* Keeps the picture's place while it waits for the first paint (decision 031). */}
                <div className={styles.pictureBox}>
                  <img
                    className={styles.picture}
                    src={slide.image.src}
                    alt={slide.alt}
                    width={slide.image.width}
                    height={slide.image.height}
                    // Below the first screen, the first one too: a picture's SVG is built and laid
                    // out when it loads, which held the first paint (decision 023). All are read
                    // once the page has painted (browser/carousel.ts), not as their slide turns in.
                    loading="lazy"
                    decoding="async"
                  />
                </div>
                <div className={styles.text}>
                  <p className={styles.number} aria-hidden="true">
                    {String(index + 1).padStart(2, '0')} / {String(total).padStart(2, '0')}
                  </p>
                  <h3 className={styles.title}>{slide.title}</h3>
                  <p>{slide.text}</p>
                </div>
              </article>
            ),
          }))}
        />
      </div>
    </section>
  )
}
