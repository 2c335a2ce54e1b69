// The one place that decides the response headers. The Node server, the static-host rules
// written by postbuild (nginx, _headers) and the tests all derive from these functions, so the
// three ways of serving the site cannot drift apart.
import type { EditorOrigins, SiteBuild } from './site-build.js'

/** Hashed file names change with their content, so a year-long immutable cache is safe. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
/** Everything else (HTML, robots.txt, errors…) is revalidated on every use. */
export const REVALIDATE_CACHE = 'no-cache'
/** API answers and health checks must never be cached. */
export const NO_STORE = 'no-store'

export const ASSETS_PREFIX = '/assets/'

/** Where the content editor lives when the build ships one (CMS_GIT_HOST). */
export const EDITOR_PATH = '/admin'

/** Whether a request path is the editor's: /admin, /admin/ or a file below it. */
export const isEditorPath = (path: string) =>
  path === EDITOR_PATH || path.startsWith(`${EDITOR_PATH}/`)

const sources = (...groups: (string | null | readonly string[])[]): string =>
  groups
    .flat()
    .filter((value): value is string => value !== null && value !== '')
    .join(' ')

/**
 * A strict policy: no 'unsafe-inline' or 'unsafe-eval' anywhere; inline code is allowed only
 * through the hashes the build computed. In own-server mode the page posts to its own origin, which
 * 'self' already covers; in email-service mode the sending API's origin is added to connect-src and
 * form-action.
 * @internal the dev server (scripts/dev.mjs) loads it through Vite, and its tests use it
 */
export function contentSecurityPolicy(build: SiteBuild): string {
  const directives: [string, string][] = [
    ['default-src', "'self'"],
    ['script-src', sources("'self'", build.scriptHashes, build.scriptOrigins)],
    ['style-src', sources("'self'", build.styleHashes)],
    ['img-src', "'self' data:"],
    ['font-src', "'self'"],
    ['connect-src', sources("'self'", build.apiOrigin, build.connectOrigins)],
    // With no frame origins, 'none' keeps the directive valid instead of leaving it empty.
    ['frame-src', sources(build.frameOrigins) || "'none'"],
    ['media-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    // Without scripts the demo form posts itself to the sending API's form endpoint.
    ['form-action', sources("'self'", build.apiOrigin)],
    ['frame-ancestors', "'none'"],
    ['manifest-src', "'self'"],
  ]
  return directives.map(([name, value]) => `${name} ${value}`).join('; ')
}

/**
 * The content editor's own policy, for /admin/ only: the site's pages keep theirs, unchanged.
 * Decap CMS needs two things the site never allows: 'unsafe-eval', because it checks its
 * configuration with ajv, which compiles validators with new Function; and inline styles,
 * which its CSS-in-JS writes at run time. It reaches only its Git host's API and sign-in.
 * @internal the dev server (scripts/dev.mjs) serves the editor under it too
 */
export function editorContentSecurityPolicy(editor: EditorOrigins): string {
  const directives: [string, string][] = [
    ['default-src', "'self'"],
    ['script-src', "'self' 'unsafe-eval'"],
    ['style-src', "'self' 'unsafe-inline'"],
    ['img-src', sources("'self' data: blob:", editor.imageOrigins)],
    ['font-src', "'self' data:"],
    // blob: for the pictures it previews, which it reads back as files.
    ['connect-src', sources("'self' blob:", editor.connectOrigins)],
    ['frame-src', "'none'"],
    ['media-src', "'self' blob:"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ]
  return directives.map(([name, value]) => `${name} ${value}`).join('; ')
}

// Only features Chromium recognises: an unknown name makes it log a console error on every page.
const DENIED_FEATURES = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
// What the embedded video player needs, for this page and the video frame's origin only.
const VIDEO_FEATURES = ['autoplay', 'encrypted-media', 'fullscreen', 'picture-in-picture']

function permissionsPolicy(build: SiteBuild): string {
  const videoAllow = ['self', ...build.frameOrigins.map((origin) => `"${origin}"`)].join(' ')
  return [
    ...DENIED_FEATURES.map((feature) => `${feature}=()`),
    ...VIDEO_FEATURES.map((feature) => `${feature}=(${videoAllow})`),
  ].join(', ')
}

/**
 * Headers sent on every response (pages, assets, errors, redirects, API). Together they earn
 * the MDN HTTP Observatory's A+ with no penalty: strict CSP, HSTS ≥ 6 months, nosniff,
 * frame-ancestors/X-Frame-Options, a private Referrer-Policy, CORP/COOP.
 */
export function securityHeaders(build: SiteBuild): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(build),
    'strict-transport-security': 'max-age=63072000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': permissionsPolicy(build),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  }
}

/**
 * The editor's headers: the site's, with its own policy, a window that keeps its reference to
 * the Git host's sign-in window (which reports back to it), and no place in search results.
 */
export function editorSecurityHeaders(
  build: SiteBuild & { editor: EditorOrigins },
): Record<string, string> {
  return {
    ...securityHeaders(build),
    'content-security-policy': editorContentSecurityPolicy(build.editor),
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'x-robots-tag': 'noindex, nofollow',
  }
}

/** Cache-Control for a successfully served file, by its URL path. */
export function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith(ASSETS_PREFIX) ? IMMUTABLE_CACHE : REVALIDATE_CACHE
}
