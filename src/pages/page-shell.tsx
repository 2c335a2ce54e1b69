import type { ReactNode } from 'react'
import { anchors } from '../copy/anchors'
import { header } from '../copy/site'
import { tagManagerId } from '../config/build-values'
import { ConsentBanner } from '../sections/consent-banner'
import { SiteFooter } from '../sections/site-footer'
import { SiteHeader } from '../sections/site-header'

type PageShellProps = { linkBase: '' | '/'; children: ReactNode }

/**
 * What every page shares: skip link, fixed header, main landmark, footer, and, only when a tag
 * manager is configured, the consent banner (early in the tab order; fixed, so it moves nothing).
 */
export function PageShell({ linkBase, children }: PageShellProps) {
  return (
    <>
      <a className="skip-link" href={`#${anchors.main}`}>
        {header.skipLink}
      </a>
      {tagManagerId && <ConsentBanner />}
      <SiteHeader linkBase={linkBase} />
      <main id={anchors.main} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  )
}
