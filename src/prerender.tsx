/**
 * Server entry used only at build time: renders each page to HTML and describes the build
 * (CSP sources, sending mode) for the servers. scripts/prerender.mjs calls it.
 */
import './styles/global.css'
import { createHash } from 'node:crypto'
import { parseMailConfig, parseSiteUrl, parseTagManagerId, type Env } from './lib/config'
import { TAG_MANAGER_ORIGIN } from './lib/tag-manager'
import { FACADE_STYLE } from './lib/video-facade'
import { pageMeta, renderHead, type PageId } from './head'
import { renderWithIslands } from './islands/island'
import { homeIslands } from './pages/home-islands'
import { HomePage } from './pages/home-page'
import { TermsPage } from './pages/terms-page'
import holdEarlySubmits from './islands/hold-early-submits.js?raw'

export type RenderedPage = {
  id: PageId
  path: string
  template: string
  head: string
  html: string
}

const templates: Record<PageId, string> = { home: 'index.html', terms: 'tyc/index.html' }

/** Marks the page as one whose scripts run, so what only a page without them needs hides. */
const MARK_SCRIPTS_RUN = "document.documentElement.setAttribute('data-scripts','')"

/**
 * Scripts inlined in a page's <head>, allowed by their CSP hashes: they must act before the
 * page's own scripts arrive, which on a slow connection is seconds after it is visible.
 */
const inlineScripts: Record<PageId, readonly string[]> = {
  home: [MARK_SCRIPTS_RUN, holdEarlySubmits],
  terms: [],
}

export function renderPages(env: Env): RenderedPage[] {
  const siteUrl = parseSiteUrl(env)
  const pages: [PageId, () => string][] = [
    ['home', () => renderWithIslands(<HomePage />, homeIslands)],
    ['terms', () => renderWithIslands(<TermsPage />, {})],
  ]
  return pages.map(([id, render]) => ({
    id,
    path: pageMeta[id].path,
    template: templates[id],
    head: [
      renderHead(id, siteUrl),
      ...inlineScripts[id].map((script) => `<script>${script}</script>`),
    ].join('\n    '),
    html: render(),
  }))
}

const cspHash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** What the servers need to know about this build: read by server/site-build.ts. */
export function describeBuild(env: Env, inlineStyles: readonly string[]) {
  const mail = parseMailConfig(env)
  const tagManager = parseTagManagerId(env)
  return {
    mode: mail.mode,
    apiOrigin: mail.apiOrigin,
    scriptHashes: Object.values(inlineScripts).flat().map(cspHash),
    styleHashes: [FACADE_STYLE, ...inlineStyles].map(cspHash),
    frameOrigins: ['https://www.youtube-nocookie.com'],
    scriptOrigins: tagManager ? [TAG_MANAGER_ORIGIN] : [],
    connectOrigins: tagManager
      ? ['https://www.google-analytics.com', 'https://*.google-analytics.com']
      : [],
    siteUrl: parseSiteUrl(env),
  }
}
