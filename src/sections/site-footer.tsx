import { BrandIcon } from '../components/brand-icon'
import { Icon } from '../components/icon'
import { Logo } from '../components/logo'
import {
  consent,
  contact,
  footer,
  header,
  mailtoHref,
  socialLinks,
  whatsappHref,
} from '../copy/site'
import { tagManagerId } from '../config/build-values'
import styles from './site-footer.module.css'

export function SiteFooter() {
  return (
    <footer className={styles.footer}>
      <div className={`container ${styles.grid}`}>
        <div className={styles.brand}>
          <a href="/" aria-label={header.logoLabel} className={styles.contact}>
            <Logo tone="light" />
          </a>
          <p>{footer.blurb}</p>
        </div>
        <div>
          <h2 className={styles.heading}>{footer.contactLabel}</h2>
          <ul className={styles.list}>
            <li>
              <a className={styles.contact} href={mailtoHref} data-cta="email">
                <Icon name="mail" size={20} />
                {contact.email}
              </a>
            </li>
            <li>
              <a
                className={styles.contact}
                href={whatsappHref}
                rel="noopener"
                target="_blank"
                data-cta="whatsapp"
              >
                <BrandIcon name="whatsapp" size={20} />
                {footer.whatsappLabel}
              </a>
            </li>
          </ul>
        </div>
        <div>
          <h2 className={styles.heading}>{footer.socialLabel}</h2>
          <ul className={styles.social}>
            {socialLinks.map((link) => (
              <li key={link.href}>
                <a
                  className={styles.socialLink}
                  href={link.href}
                  aria-label={link.label}
                  rel="noopener"
                  target="_blank"
                >
                  <BrandIcon name={link.network} size={20} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className={`container ${styles.bottom}`}>
        <p>{footer.copyright}</p>
        <div className={styles.legalLinks}>
          <a className={styles.legal} href={footer.legal.href}>
            {footer.legal.label}
          </a>
          {tagManagerId && (
            <button type="button" className={styles.legal} data-consent-open="">
              {consent.reopen}
            </button>
          )}
        </div>
      </div>
    </footer>
  )
}
