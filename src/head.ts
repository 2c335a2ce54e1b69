import { areaServed, language, pages, SHARE_IMAGE_PATH, type PageId } from './config/site-facts'
import { themeColor } from './config/design-tokens'
import { anchors } from './copy/anchors'
import { head as homeMeta } from './copy/home'
import { company, contact, socialLinks } from './copy/site'
import { termsPage } from './copy/terms'
import { escapeHtml } from './contract/escape-html'

type PageMeta = { title: string; description: string }

const pageMeta: Record<PageId, PageMeta> = {
  home: homeMeta,
  terms: { title: `${termsPage.title} | ${company.name}`, description: termsPage.description },
}

// JSON inside <script> must not be able to close the element.
const jsonLd = (data: object) =>
  `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`

function structuredData(siteUrl: string): object {
  const organization = {
    '@type': 'Organization',
    '@id': `${siteUrl}/#organizacion`,
    name: company.name,
    legalName: company.legalName,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/icon-512.png`,
    email: contact.email,
    sameAs: socialLinks.map((profile) => profile.href),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'sales',
      email: contact.email,
      telephone: `+${contact.whatsappNumber}`,
      availableLanguage: [language.html],
      areaServed,
    },
  }
  const application = {
    '@type': 'SoftwareApplication',
    name: company.name,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web, WhatsApp',
    description: homeMeta.description,
    publisher: { '@id': organization['@id'] },
    offers: {
      '@type': 'Offer',
      name: homeMeta.offer.name,
      description: homeMeta.offer.description,
      price: '0',
      priceCurrency: 'MXN',
      url: `${siteUrl}/#${anchors.demo}`,
    },
  }
  return { '@context': 'https://schema.org', '@graph': [organization, application] }
}

/**
 * A tag the browser needs only once the page is shown: the inlined
 * islands/load-after-first-paint.js adds it after the first paint, so that nothing it fetches
 * competes with the page before that (Chromium fetches the manifest as the page ends parsing);
 * without JavaScript the <noscript> copy stands.
 */
const afterFirstPaint = (tag: string) => [
  `<template data-after-first-paint>${tag}</template>`,
  `<noscript>${tag}</noscript>`,
]

/** Everything a page's <head> says about it to browsers, search engines and link previews. */
export function renderHead(page: PageId, siteUrl: string): string {
  const meta = pageMeta[page]
  const url = `${siteUrl}${pages[page].path}`
  const image = `${siteUrl}${SHARE_IMAGE_PATH}`
  const tags = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${url}">`,
    `<meta name="theme-color" content="${themeColor}">`,
    `<meta name="robots" content="index, follow">`,
    `<link rel="icon" href="/favicon.ico" sizes="32x32">`,
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml">`,
    `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
    ...afterFirstPaint(`<link rel="manifest" href="/site.webmanifest">`),
    `<meta property="og:type" content="website">`,
    `<meta property="og:locale" content="${language.openGraph}">`,
    `<meta property="og:site_name" content="${company.name}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${url}">`,
    `<meta property="og:image" content="${image}">`,
    `<meta property="og:image:width" content="${homeMeta.shareImage.width}">`,
    `<meta property="og:image:height" content="${homeMeta.shareImage.height}">`,
    `<meta property="og:image:alt" content="${escapeHtml(homeMeta.title)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    `<meta name="twitter:image" content="${image}">`,
  ]
  if (page === 'home') tags.push(jsonLd(structuredData(siteUrl)))
  return tags.join('\n    ')
}
