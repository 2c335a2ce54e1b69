import { anchors } from '../copy/anchors'
import { pillars } from '../copy/home'
import section from './section.module.css'
import styles from './pillars.module.css'

export function Pillars() {
  return (
    <section
      id={anchors.why}
      tabIndex={-1}
      className={`${section.section} ${section.light}`}
      aria-labelledby="porque-titulo"
    >
      <div className="container">
        <div className={section.intro}>
          <h2 id="porque-titulo" className={section.heading}>
            {pillars.heading}
          </h2>
          <p className={section.lead}>{pillars.lead}</p>
        </div>
        <ol className={styles.list}>
          {pillars.items.map((pillar, index) => (
            <li key={pillar.title} className={styles.pillar}>
              <span className={styles.number} aria-hidden="true">
                {index + 1}
              </span>
              <h3 className={styles.title}>{pillar.title}</h3>
              <p>{pillar.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  )
}
