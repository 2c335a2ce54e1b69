import { homeMeta } from './content/meta'
import { anchors } from './content/anchors'
import { mailtoHref, site } from './content/site'
import { terms } from './content/terms'

export type PageId = 'home' | 'terms'

type PageMeta = { path: string; title: string; description: string }

export const pageMeta: Record<PageId, PageMeta> = {
  home: { path: '/', title: homeMeta.title, description: homeMeta.description },
  terms: {
    path: '/tyc',
    title: `${terms.title} | ${site.name}`,
    description: terms.metaDescription,
  },
}

export const OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: homeMeta.title,
} as const

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// JSON inside <script> must not be able to close the element.
const jsonLd = (data: object) =>
  `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`

function structuredData(siteUrl: string): object {
  const organization = {
    '@type': 'Organization',
    '@id': `${siteUrl}/#organizacion`,
    name: site.name,
    legalName: site.legalName,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/icon-512.png`,
    email: site.contactEmail,
    sameAs: site.social.map((link) => link.href),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'sales',
      email: mailtoHref.replace('mailto:', ''),
      telephone: `+${site.whatsappNumber}`,
      availableLanguage: ['es'],
      areaServed: ['MX', 'ES', 'CO', 'PE', 'CL', 'AR', 'GT', 'CR'],
    },
  }
  const application = {
    '@type': 'SoftwareApplication',
    name: site.name,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web, WhatsApp',
    description: homeMeta.description,
    publisher: { '@id': organization['@id'] },
    offers: {
      '@type': 'Offer',
      name: 'Demo gratis',
      description: 'Demostración gratuita y sin compromiso de GASPRE con los precios de tu zona.',
      price: '0',
      priceCurrency: 'MXN',
      url: `${siteUrl}/#${anchors.demo}`,
    },
  }
  return { '@context': 'https://schema.org', '@graph': [organization, application] }
}

/** Everything a page's <head> says about it to browsers, search engines and link previews. */
export function renderHead(page: PageId, siteUrl: string): string {
  const meta = pageMeta[page]
  const url = `${siteUrl}${meta.path}`
  const image = `${siteUrl}${OG_IMAGE.path}`
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${url}">`,
    `<meta name="theme-color" content="${site.themeColor}">`,
    `<meta name="robots" content="index, follow">`,
    `<link rel="icon" href="/favicon.ico" sizes="32x32">`,
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml">`,
    `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
    `<link rel="manifest" href="/site.webmanifest">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:locale" content="${site.locale}">`,
    `<meta property="og:site_name" content="${site.name}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${url}">`,
    `<meta property="og:image" content="${image}">`,
    `<meta property="og:image:width" content="${OG_IMAGE.width}">`,
    `<meta property="og:image:height" content="${OG_IMAGE.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(OG_IMAGE.alt)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    `<meta name="twitter:image" content="${image}">`,
  ]
  if (page === 'home') tags.push(jsonLd(structuredData(siteUrl)))
  return tags.join('\n    ')
}
