import { hero } from '../copy/home'
import { Island } from '../islands/island'
import { HeroBoard } from './hero-board'
import styles from './hero.module.css'

/**
 * Static: only its calls to action and the video popup hydrate (the 'hero-actions' island), so
 * the headline, the figures and the product picture cost no JavaScript.
 */
export function Hero() {
  return (
    <section className={styles.hero} aria-labelledby="titulo-principal">
      <div className={`container ${styles.layout}`}>
        <div className={styles.content}>
          <p className={styles.eyebrow}>{hero.eyebrow}</p>
          <h1 id="titulo-principal" className={styles.title}>
            {hero.title}
          </h1>
          <p className={styles.lead}>{hero.lead}</p>
          <Island name="hero-actions" />
        </div>
        <HeroBoard />
      </div>
      <div className="container">
        <dl className={styles.proof}>
          {hero.proof.map((item) => (
            <div key={item.figure} className={styles.proofItem}>
              <dt className={styles.figure}>{item.figure}</dt>
              <dd className={styles.figureLabel}>{item.label}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  )
}
