/**
 * The site's technical facts, each written once: its pages and where it lives. Who runs it,
 * how to reach them and every word a visitor reads are in content/ (content/sitio.yml). Separate exports, so a script that needs one fact carries only that one.
 */

/** Where the site is served when SITE_URL does not say otherwise. */
export const DEFAULT_SITE_URL = 'https://gaspre.mx'

export const language = { html: 'es', openGraph: 'es_MX' } as const

/**
 * Every page the build writes: its address and the file a static host serves for it. A page
 * other than the home page is `<name>.html`, not `<name>/index.html`: Cloudflare Pages and
 * Netlify serve `/<name>` from it as it is, where a folder would cost a redirect to `/<name>/`.
 */
export const pages = {
  home: { path: '/', file: 'index.html' },
  terms: { path: '/tyc', file: 'tyc.html' },
} as const

export type PageId = keyof typeof pages

/** The page an unknown address gets, for static hosts without redirect rules. */
export const NOT_FOUND_FILE = '404.html'

/** Where the link-preview image (content/inicio.yml, head.shareImage) is served. */
export const SHARE_IMAGE_PATH = '/og-image.png'

/** Countries the sales team serves, as ISO 3166-1 codes (structured data for search engines). */
export const areaServed = ['MX', 'ES', 'CO', 'PE', 'CL', 'AR', 'GT', 'CR'] as const

/** The product video's host: the privacy-enhanced YouTube domain, allowed in frames by the CSP. */
export const videoOrigin = 'https://www.youtube-nocookie.com'
