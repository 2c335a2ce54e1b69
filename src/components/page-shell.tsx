import type { ReactNode } from 'react'
import { anchors } from '../content/anchors'
import { header } from '../content/site'
import { SiteFooter } from '../sections/site-footer'
import { SiteHeader } from '../sections/site-header'

type PageShellProps = { linkBase: '' | '/'; children: ReactNode }

/** What every page shares: skip link, fixed header, main landmark, footer. */
export function PageShell({ linkBase, children }: PageShellProps) {
  return (
    <>
      <a className="skip-link" href={`#${anchors.main}`}>
        {header.skipLink}
      </a>
      <SiteHeader linkBase={linkBase} />
      <main id={anchors.main} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  )
}
