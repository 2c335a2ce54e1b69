import { anchors } from '../content/anchors'
import { clients } from '../content/home'
import { assetUrl } from '../rules/asset-url'
import section from './section.module.css'
import styles from './clients.module.css'

const logos = import.meta.glob<string>('../assets/clients/*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
})

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
            <li key={logo.file} className={styles.logo}>
              <img
                src={assetUrl(logos, logo.file)}
                alt={logo.name}
                width={200}
                height={80}
                loading="lazy"
                decoding="async"
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
