/**
 * Server entry used only at build time: renders each page to HTML and describes the build
 * (CSP sources, sending mode) for the servers. pipeline/prerender.mjs calls it.
 */
import './styles/global.css'
import { createHash } from 'node:crypto'
import {
  parseContentEditor,
  parseMailConfig,
  parseSiteUrl,
  parseTagManagerId,
  type Env,
} from './config/build-settings'
import {
  language,
  NOT_FOUND_FILE,
  pages,
  SHARE_IMAGE_PATH,
  videoOrigin,
  type PageId,
} from './config/site-facts'
import { head } from './copy/home'
import { notFound } from './copy/site'
import { TAG_MANAGER_ORIGIN } from './browser/tag-manager'
import { FACADE_STYLE } from './sections/video-facade'
import { renderHead } from './head'
import { renderWithIslands } from './islands/island'
import { homeIslands } from './pages/home-islands'
import { HomePage } from './pages/home-page'
import { TermsPage } from './pages/terms-page'
import holdEarlySubmits from './islands/hold-early-submits.js?raw'
import loadAfterFirstPaint from './islands/load-after-first-paint.js?raw'
import { escapeHtml } from './contract/escape-html'
import bookingAnswers from '../content/formulario.yml?field=bookingAnswers'
import bookingPage from '../content/formulario.yml?field=bookingPage'
import formContent from '../content/formulario.yml?field=demoForm'

export type RenderedPage = {
  id: PageId
  path: string
  template: string
  head: string
  html: string
}

/** Marks the page as one whose scripts run, so what only a page without them needs hides. */
const MARK_SCRIPTS_RUN = "document.documentElement.setAttribute('data-scripts','')"

/**
 * Scripts inlined in a page's <head>, allowed by their CSP hashes: they must act before the
 * page's own scripts arrive, which on a slow connection is seconds after it is visible.
 */
const inlineScripts: Record<PageId, readonly string[]> = {
  home: [MARK_SCRIPTS_RUN, holdEarlySubmits, loadAfterFirstPaint],
  terms: [loadAfterFirstPaint],
}

export function renderPages(env: Env): RenderedPage[] {
  const siteUrl = parseSiteUrl(env)
  const renders: [PageId, () => string][] = [
    ['home', () => renderWithIslands(<HomePage />, homeIslands)],
    ['terms', () => renderWithIslands(<TermsPage />, {})],
  ]
  return renders.map(([id, render]) => ({
    id,
    path: pages[id].path,
    template: pages[id].file,
    head: [
      renderHead(id, siteUrl),
      ...inlineScripts[id].map((script) => `<script>${script}</script>`),
    ].join('\n    '),
    html: render(),
  }))
}

/**
 * For static hosts without redirect rules: an unknown address still ends on the home page. A
 * page of its own, with no stylesheet or script, so it needs no CSP hash.
 */
export function renderNotFoundPage(): { file: string; html: string } {
  const home = pages.home.path
  return {
    file: NOT_FOUND_FILE,
    html: `<!doctype html>
<html lang="${language.html}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex">
    <meta http-equiv="refresh" content="0; url=${home}">
    <title>${escapeHtml(notFound.title)}</title>
  </head>
  <body>
    <p>${escapeHtml(notFound.text)} <a href="${home}">${escapeHtml(notFound.homeLink)}</a>.</p>
  </body>
</html>
`,
  }
}

/** The link-preview picture, made from content at build time, and where it is served. */
export const sharedFiles = (): { readonly source: string; readonly path: string }[] => [
  { source: head.shareImage.file, path: SHARE_IMAGE_PATH },
]

const cspHash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** What the servers need to know about this build: read by server/http/site-build.ts. */
export function describeBuild(env: Env, inlineStyles: readonly string[]) {
  const mail = parseMailConfig(env)
  const tagManager = parseTagManagerId(env)
  const editor = parseContentEditor(env)
  return {
    mode: mail.mode,
    apiOrigin: mail.apiOrigin,
    scriptHashes: [...new Set(Object.values(inlineScripts).flat())].map(cspHash),
    styleHashes: [FACADE_STYLE, ...inlineStyles].map(cspHash),
    frameOrigins: [videoOrigin],
    scriptOrigins: tagManager ? [TAG_MANAGER_ORIGIN] : [],
    connectOrigins: tagManager
      ? ['https://www.google-analytics.com', 'https://*.google-analytics.com']
      : [],
    // The content editor at /admin/ (CMS_GIT_HOST), served under a policy of its own.
    editor: editor && {
      connectOrigins: editor.connectOrigins,
      imageOrigins: editor.imageOrigins,
    },
    // What our own door refuses a field with: the messages this page shows beside it.
    formMessages:
      mail.mode === 'own-server'
        ? {
            required: formContent.errors.required,
            email: formContent.errors.email,
            phone: formContent.errors.phone,
            tooLong: formContent.errors.tooLong,
          }
        : null,
    // What the booking's pages and answers say (server/booking/), as a marketer wrote it.
    bookingTexts:
      mail.mode === 'own-server' ? { page: bookingPage, answers: bookingAnswers } : null,
    siteUrl: parseSiteUrl(env),
    pages: Object.values(pages),
  }
}
