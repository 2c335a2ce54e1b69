// Cloudflare's own local runtime for Pages (`wrangler pages dev`, on workerd), as testing/site.ts
// runs it (host 'pages') over a build: the asset server, `_headers` and `_redirects` handling of
// a Pages deployment, which Netlify's files follow too.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { StaticHostWays } from './serving-checks.js'

/**
 * wrangler 4.86 is the last release that runs on Node 20; its workerd (1.20260426) refuses a
 * compatibility date later than its own, so the date is pinned with it.
 */
export const PAGES_COMPATIBILITY_DATE = '2026-04-26'

/** Where Cloudflare Pages does things its own way (Netlify's defaults are the same). */
export const PAGES_WAYS: StaticHostWays = {
  pageCache: 'public, max-age=0, must-revalidate',
  missingCache: 'no-store',
  htmlFileRedirects: true,
  homeKeepsQuery: true,
  missingFileGoesHome: true,
}

function resolveWrangler(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve('wrangler/package.json')
    return join(dirname(manifest), 'bin', 'wrangler.js')
  } catch {
    return null
  }
}

/** wrangler's command-line entry, or null when the dev dependency is not installed. */
export const WRANGLER_BIN = resolveWrangler()
