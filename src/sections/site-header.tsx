import { ButtonLink } from '../components/button'
import { Icon } from '../components/icon'
import { Logo } from '../components/logo'
import { header, navLinks } from '../copy/site'
import { MOBILE_MENU_ID } from '../browser/header-menu'
import styles from './site-header.module.css'

type SiteHeaderProps = {
  /** '' on the home page (plain fragments), '/' elsewhere (links back to the home sections). */
  linkBase: '' | '/'
}

/**
 * Static markup: the mobile menu is driven by browser/header-menu.ts, which is small enough that
 * no page needs React just for its header.
 */
export function SiteHeader({ linkBase }: SiteHeaderProps) {
  const links = (
    <ul className={styles.links}>
      {navLinks.map((link) => (
        <li key={link.href}>
          <a className={styles.link} href={`${linkBase}${link.href}`}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  )

  return (
    <header className={styles.header}>
      <div className={`container ${styles.bar}`}>
        <a className={styles.logo} href={linkBase === '' ? '#' : '/'} aria-label={header.logoLabel}>
          <Logo />
        </a>
        <nav className={styles.desktopNav} aria-label={header.navLabel}>
          {links}
        </nav>
        <div className={styles.actions}>
          <ButtonLink
            className={styles.cta}
            href={`${linkBase}${header.cta.href}`}
            data-cta="header"
          >
            {header.cta.label}
          </ButtonLink>
          <button
            type="button"
            className={styles.menuButton}
            aria-label={header.openMenu}
            aria-expanded="false"
            aria-controls={MOBILE_MENU_ID}
            data-label-open={header.openMenu}
            data-label-close={header.closeMenu}
          >
            <Icon name="menu" className={styles.iconOpen} />
            <Icon name="close" className={styles.iconClose} />
          </button>
        </div>
      </div>
      <nav
        id={MOBILE_MENU_ID}
        className={styles.mobileMenu}
        aria-label={header.mobileNavLabel}
        hidden
      >
        <div className="container">{links}</div>
      </nav>
    </header>
  )
}
