// Decides what a GET/HEAD path is before any file is touched. Everything that could reach
// outside dist/ (dot segments, backslashes, NUL, bad percent-encoding) is refused here, so the
// file layer only ever sees a plain, decoded path below the site root.
import { ASSETS_PREFIX } from './security-headers.js'

type PathKind =
  | { kind: 'file'; file: string } // serve this path below dist (404 if it does not exist)
  | { kind: 'redirect' } // an unknown page: 302 to /
  | { kind: 'not-found' } // never served: dotfiles, static-host rules, API and hook paths
  | { kind: 'bad-request' } // malformed or hostile

/** Pages with a prerendered file; anything else without an extension goes to /. */
const PAGES: Record<string, string> = {
  '/': '/index.html',
  '/tyc': '/tyc.html',
  '/tyc/': '/tyc.html',
}

/** The rule files the build writes for Netlify and Cloudflare Pages: theirs to read, not to serve. */
const STATIC_HOST_RULES = new Set(['_headers', '_redirects'])

/** Paths owned by handlers other than the file server (the intake): a GET there never redirects. */
const API_PREFIX = '/api/'

const HAS_EXTENSION = /\.[^./]+$/

/**
 * The build's precompressed copies (page.html.br, page.html.gz) are the encodings of their page,
 * sent only with its own type and Content-Encoding: never files of their own.
 */
const PRECOMPRESSED_COPY = /\.(br|gz)$/i

export function classifyPath(rawUrl: string): PathKind {
  const queryAt = rawUrl.indexOf('?')
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt)
  if (!rawPath.startsWith('/')) return { kind: 'bad-request' }
  let path: string
  try {
    path = decodeURIComponent(rawPath)
  } catch {
    return { kind: 'bad-request' }
  }
  if (path.includes('\0') || path.includes('\\')) return { kind: 'bad-request' }
  const segments = path.split('/')
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    return { kind: 'bad-request' }
  }
  const page = PAGES[path]
  if (page !== undefined) return { kind: 'file', file: page }
  if (segments.some((segment) => segment.startsWith('.') || STATIC_HOST_RULES.has(segment))) {
    return { kind: 'not-found' }
  }
  if (path.startsWith(API_PREFIX)) return { kind: 'not-found' }
  const last = segments[segments.length - 1] ?? ''
  if (PRECOMPRESSED_COPY.test(last)) return { kind: 'not-found' }
  if (HAS_EXTENSION.test(last)) return { kind: 'file', file: path }
  // Under /assets/ only files exist: a directory or extension-less name is a missing asset.
  if (path.startsWith(ASSETS_PREFIX))
    return last === '' ? { kind: 'not-found' } : { kind: 'file', file: path }
  return { kind: 'redirect' }
}
