import { anchors } from '../copy/anchors'
import { clients } from '../copy/clients'
import section from './section.module.css'
import styles from './clients.module.css'

export function Clients() {
  return (
    <section
      id={anchors.clients}
      tabIndex={-1}
      className={section.section}
      aria-labelledby="clientes-titulo"
    >
      <div className="container">
        <div className={`${section.intro} ${section.centered}`}>
          <h2 id="clientes-titulo" className={section.heading}>
            {clients.heading}
          </h2>
          <p className={section.lead}>{clients.lead}</p>
        </div>
        <ul className={styles.logos} aria-label={clients.listLabel}>
          {clients.logos.map((logo) => (
            <li key={logo.name} className={styles.logo}>
              {/* Keeps the logo's place while it waits for the first paint (decision 031). */}
              <span className={styles.logoBox}>
                <img
                  src={logo.logo.src}
                  alt={logo.name}
                  width={logo.logo.width}
                  height={logo.logo.height}
                  loading="lazy"
                  decoding="async"
                />
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
