// The serving rules every way of serving the site must follow, written once and run against
// the Node server (app.test.ts), nginx with deploy/nginx.conf (nginx.test.ts) and Cloudflare's
// runtime for Pages with the generated _headers and _redirects (pages.test.ts).
// Plain node:assert, so each check is a function of a running server and a fake dist.
import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import {
  ASSETS_PREFIX,
  IMMUTABLE_CACHE,
  REVALIDATE_CACHE,
  editorSecurityHeaders,
  securityHeaders,
} from '../../server/http/security-headers.js'
import type { SiteBuild } from '../../server/http/site-build.js'
import type { FakeDist } from './fake-dist.js'
import { EDITOR_PAGE_MARKER, SECRET_MARKER } from './fake-dist.js'
import { rawRequest, request, type HttpResponse } from './http.js'

export interface ServingTarget {
  url: string
  dist: FakeDist
  build: SiteBuild
  /** Whether the server sends the .br files (nginx needs an extra module for that). */
  brotli: boolean
  /** Set for a static host (Cloudflare Pages, Netlify): where its own ways differ from ours. */
  staticHost?: StaticHostWays
}

/**
 * What a static host decides by itself, where the rules leave room: each is as good for a
 * visitor as what the Node server does, and the checks hold the host to exactly it.
 */
export interface StaticHostWays {
  /** Cache-Control of a page (revalidated, in the host's words). */
  pageCache: string
  /** Cache-Control of a 404. */
  missingCache: string
  /** A page's .html file answers with a 308 to the page's address (/tyc.html → /tyc). */
  htmlFileRedirects: boolean
  /** The redirect home keeps the visitor's query (campaign tags and all). */
  homeKeepsQuery: boolean
  /**
   * A missing file outside /assets/, or a dotfile, goes home like any unknown address: rules
   * matched by address cannot tell a missing file's name from a page's.
   */
  missingFileGoesHome: boolean
}

export interface ServingCheck {
  name: string
  /**
   * Only for servers we run (Node, nginx): what they do with bytes on the wire. Behind a static
   * host the CDN's edge answers those, and its local runtime has a stand-in proxy instead.
   */
  serversWeRunOnly?: boolean
  run(target: ServingTarget): Promise<void>
}

const header = (res: HttpResponse, name: string): string => {
  const value = res.headers[name]
  return Array.isArray(value) ? value.join(', ') : (value ?? '')
}

export function assertSecurityHeaders(res: HttpResponse, build: SiteBuild, what: string): void {
  for (const [name, value] of Object.entries(securityHeaders(build))) {
    assert.equal(header(res, name), value, `${name} on ${what}`)
  }
  assert.equal(res.headers['x-powered-by'], undefined, `x-powered-by on ${what}`)
  assert.doesNotMatch(header(res, 'content-security-policy'), /unsafe-inline|unsafe-eval/)
}

/** What must never appear in any answer: files outside dist/, stack traces. */
export function assertNoLeak(res: HttpResponse | string, what: string): void {
  const text = typeof res === 'string' ? res : res.text
  assert.ok(!text.includes(SECRET_MARKER), `${what}: a file outside dist leaked`)
  assert.doesNotMatch(text, /root:x?:0:0:/, `${what}: /etc/passwd leaked`)
  assert.doesNotMatch(text, /"devDependencies"/, `${what}: package.json leaked`)
  assert.doesNotMatch(
    text,
    /\n\s+at .+[(/].*:\d+:\d+|node:internal|"stack"/,
    `${what}: stack trace`,
  )
}

/** A bad request is refused (4xx) or sent home (302 /), with headers, and nothing leaks. */
async function assertRefused(target: ServingTarget, path: string): Promise<void> {
  const res = await request(target.url, path)
  const redirectedHome = res.status === 302 && res.headers.location === '/'
  assert.ok(
    (res.status >= 400 && res.status < 500) || redirectedHome,
    `${path.slice(0, 80)} answered ${res.status}`,
  )
  assertNoLeak(res, path.slice(0, 80))
  assertSecurityHeaders(res, target.build, path.slice(0, 80))
}

async function assertStillServing(target: ServingTarget): Promise<void> {
  const res = await request(target.url, '/')
  assert.equal(res.status, 200, 'the server still answers after bad input')
}

/** A check that every path is answered with a refusal, and the server keeps serving after. */
function refusesAll(
  name: string,
  paths: readonly string[],
  serversWeRunOnly = false,
): ServingCheck {
  return {
    name,
    serversWeRunOnly,
    async run(target) {
      for (const path of paths) await assertRefused(target, path)
      await assertStillServing(target)
    },
  }
}

/** Where an unknown address is sent: home, with its query when the host keeps it. */
const homeFor = (target: ServingTarget, path: string): string => {
  const queryAt = path.indexOf('?')
  return target.staticHost?.homeKeepsQuery && queryAt !== -1 ? `/${path.slice(queryAt)}` : '/'
}

/** What a missing file answers: a 404, or outside /assets/ home on a host that cannot tell. */
async function assertMissingFile(target: ServingTarget, path: string): Promise<HttpResponse> {
  const res = await request(target.url, path)
  if (target.staticHost?.missingFileGoesHome && !path.startsWith(ASSETS_PREFIX)) {
    assert.equal(res.status, 302, path)
    assert.equal(res.headers.location, '/', path)
  } else {
    assert.equal(res.status, 404, path)
  }
  return res
}

const file = (target: ServingTarget, path: string): Buffer => {
  const content = target.dist.files.get(path)
  assert.ok(content, `fake dist has ${path}`)
  return content
}

const CONTENT_TYPES: Record<string, RegExp> = {
  html: /^text\/html/,
  js: /^(application|text)\/javascript/,
  css: /^text\/css/,
  svg: /^image\/svg\+xml/,
  woff2: /^font\/woff2/,
  txt: /^text\/plain/,
  xml: /^(application|text)\/xml/,
  webmanifest: /^application\/manifest\+json/,
  ico: /^image\/(x-icon|vnd\.microsoft\.icon)/,
  png: /^image\/png/,
}

export const SERVING_CHECKS: ServingCheck[] = [
  {
    name: 'GET / serves the home page with every security header',
    async run(target) {
      const res = await request(target.url, '/')
      assert.equal(res.status, 200)
      assert.match(header(res, 'content-type'), /^text\/html/)
      assert.deepEqual(res.body, file(target, '/index.html'))
      assertSecurityHeaders(res, target.build, '/')
    },
  },
  {
    name: '/tyc and /tyc/ both serve the terms page, without a redirect',
    async run(target) {
      for (const path of ['/tyc', '/tyc/', '/tyc?utm_source=x']) {
        const res = await request(target.url, path)
        assert.equal(res.status, 200, path)
        assert.deepEqual(res.body, file(target, '/tyc.html'), path)
        assertSecurityHeaders(res, target.build, path)
      }
    },
  },
  {
    name: 'every file of the build is served with its content and type',
    async run(target) {
      for (const [path, content] of target.dist.files) {
        const res = await request(target.url, path)
        if (target.staticHost?.htmlFileRedirects && path.endsWith('.html')) {
          assert.equal(res.status, 308, path)
          assert.equal(res.headers.location, path.replace(/(\/index)?\.html$/, '') || '/', path)
          assert.equal(header(res, 'x-content-type-options'), 'nosniff', path)
          continue
        }
        assert.equal(res.status, 200, path)
        assert.deepEqual(res.body, content, path)
        const type = CONTENT_TYPES[path.split('.').pop() ?? '']
        assert.ok(type, `expected type for ${path}`)
        assert.match(header(res, 'content-type'), type, path)
        assert.equal(header(res, 'x-content-type-options'), 'nosniff', path)
      }
    },
  },
  {
    name: 'an unknown page path redirects to / with a 302',
    async run(target) {
      for (const path of [
        '/foo',
        '/foo/bar',
        '/foo/',
        '/precios?utm_source=ad',
        '/assets',
        '//x',
        // No editor in this build: its address is nothing special.
        '/admin',
        '/admin/',
      ]) {
        const res = await request(target.url, path)
        assert.equal(res.status, 302, path)
        assert.equal(res.headers.location, homeFor(target, path), path)
        assertSecurityHeaders(res, target.build, path)
      }
    },
  },
  {
    name: 'a missing asset or file is a 404, uncached, with headers',
    async run(target) {
      const missingCache = target.staticHost?.missingCache ?? REVALIDATE_CACHE
      for (const path of ['/assets/missing.js', '/assets/']) {
        const res = await request(target.url, path)
        assert.equal(res.status, 404, path)
        assert.equal(header(res, 'cache-control'), missingCache, path)
        assertSecurityHeaders(res, target.build, path)
        assertNoLeak(res, path)
      }
      for (const path of ['/missing.png', '/tyc/x.css']) {
        const res = await assertMissingFile(target, path)
        if (res.status === 404) assert.equal(header(res, 'cache-control'), missingCache, path)
        assertSecurityHeaders(res, target.build, path)
        assertNoLeak(res, path)
      }
    },
  },
  {
    name: 'hashed assets are cached immutably, everything else revalidates',
    async run(target) {
      const asset = await request(target.url, target.dist.asset)
      assert.equal(header(asset, 'cache-control'), IMMUTABLE_CACHE)
      const pageCache = target.staticHost?.pageCache ?? REVALIDATE_CACHE
      for (const path of ['/', '/tyc', '/robots.txt', '/favicon.svg', '/site.webmanifest']) {
        const res = await request(target.url, path)
        assert.equal(header(res, 'cache-control'), pageCache, path)
      }
      const redirect = await request(target.url, '/foo')
      assert.doesNotMatch(header(redirect, 'cache-control'), /immutable|max-age=[1-9]/)
    },
  },
  {
    name: 'gzip: the precompressed body, with Vary: Accept-Encoding',
    // A CDN compresses by itself; only our servers send the build's .gz files.
    serversWeRunOnly: true,
    async run(target) {
      for (const path of ['/', target.dist.asset, '/assets/style-def456.css']) {
        const res = await request(target.url, path, { headers: { 'accept-encoding': 'gzip' } })
        assert.equal(res.status, 200, path)
        assert.equal(header(res, 'content-encoding'), 'gzip', path)
        assert.match(header(res, 'vary'), /accept-encoding/i, path)
        const original = path === '/' ? '/index.html' : path
        assert.deepEqual(gunzipSync(res.body), file(target, original), path)
      }
    },
  },
  {
    name: 'brotli: the precompressed body when supported, identity otherwise',
    serversWeRunOnly: true,
    async run(target) {
      const res = await request(target.url, target.dist.asset, {
        headers: { 'accept-encoding': 'br' },
      })
      assert.equal(res.status, 200)
      assert.match(header(res, 'vary'), /accept-encoding/i)
      const original = file(target, target.dist.asset)
      if (target.brotli) {
        assert.equal(header(res, 'content-encoding'), 'br')
        assert.deepEqual(brotliDecompressSync(res.body), original)
        const both = await request(target.url, '/', { headers: { 'accept-encoding': 'br, gzip' } })
        assert.equal(header(both, 'content-encoding'), 'br')
        assert.deepEqual(brotliDecompressSync(both.body), file(target, '/index.html'))
      } else {
        assert.equal(header(res, 'content-encoding'), '')
        assert.deepEqual(res.body, original)
      }
    },
  },
  {
    name: 'conditional GET: ETag / Last-Modified revalidate with 304',
    async run(target) {
      for (const path of ['/', target.dist.asset]) {
        for (const encoding of ['identity', 'gzip']) {
          const headers = { 'accept-encoding': encoding }
          const first = await request(target.url, path, { headers })
          const etag = header(first, 'etag')
          const modified = header(first, 'last-modified')
          assert.ok(etag !== '' || modified !== '', `${path}: a validator`)
          const again = await request(target.url, path, {
            headers: etag
              ? { ...headers, 'if-none-match': etag }
              : { ...headers, 'if-modified-since': modified },
          })
          assert.equal(again.status, 304, `${path} (${encoding})`)
          assert.equal(again.body.length, 0)
          assertSecurityHeaders(again, target.build, `304 ${path}`)
        }
      }
    },
  },
  {
    name: 'HEAD answers as GET does, without a body',
    async run(target) {
      for (const [path, status] of [
        ['/', 200],
        ['/tyc', 200],
        [target.dist.asset, 200],
        ['/foo', 302],
        ['/missing.png', target.staticHost?.missingFileGoesHome ? 302 : 404],
      ] as const) {
        const get = await request(target.url, path)
        const head = await request(target.url, path, { method: 'HEAD' })
        assert.equal(head.status, status, `HEAD ${path}`)
        assert.equal(head.body.length, 0, `HEAD ${path}`)
        assert.equal(header(head, 'content-type'), header(get, 'content-type'), `HEAD ${path}`)
        assertSecurityHeaders(head, target.build, `HEAD ${path}`)
      }
    },
  },
  {
    name: 'dotfiles, dot-directories, _headers and _redirects are never served',
    async run(target) {
      for (const path of [
        '/.site.json',
        '/.deploy/security-headers.conf',
        '/_headers',
        '/_redirects',
        '/.git/config',
        '/assets/.hidden.js',
        '/%2esite.json',
      ]) {
        const res = await assertMissingFile(target, path)
        assert.doesNotMatch(
          res.text,
          /add_header|"scriptHashes"|content-security-policy:| 200$/im,
          path,
        )
        assertSecurityHeaders(res, target.build, path)
      }
    },
  },
  refusesAll('bad input: path traversal with ../', [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/../../../../../../etc/passwd',
    '/tyc/../../package.json',
  ]),
  refusesAll('bad input: percent-encoded traversal (%2e%2e%2f)', [
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/..%2f..%2f..%2fetc%2fpasswd',
  ]),
  refusesAll('bad input: double-encoded traversal (%252e%252e%252f)', [
    '/%252e%252e%252fsecret.txt',
    '/assets/%252e%252e%252f%252e%252e%252fsecret.txt',
    '/%252e%252e%252f%252e%252e%252fetc%252fpasswd',
  ]),
  refusesAll('bad input: backslash traversal (\\..\\ and %5c)', [
    '/\\..\\secret.txt',
    '/assets\\..\\..\\secret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/%5c..%5c..%5cetc%5cpasswd',
  ]),
  refusesAll(
    'bad input: null bytes (%00)',
    ['/%00', '/index.html%00', '/index.html%00.js', '/assets/app%00.js'],
    true,
  ),
  refusesAll('bad input: malformed percent-encoding', [
    '/%',
    '/%E0%A4%A',
    '/assets/%zz.js',
    '/%C0%AE%C0%AE/secret.txt',
    '/%ff',
  ]),
  {
    name: 'bad input: a 100 KB URL',
    serversWeRunOnly: true,
    async run(target) {
      const res = await request(target.url, `/${'a'.repeat(100 * 1024)}`)
      assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`)
      assertNoLeak(res, 'long URL')
      const longAsset = await request(target.url, `/assets/${'b'.repeat(4000)}.js`)
      assert.ok(longAsset.status >= 400 && longAsset.status < 500, `answered ${longAsset.status}`)
      await assertStillServing(target)
    },
  },
  {
    name: 'bad input: malformed headers and request lines',
    serversWeRunOnly: true,
    async run(target) {
      const closing = 'Connection: close\r\n\r\n'
      for (const raw of [
        `GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n${closing}`,
        `GET / HTTP/1.1\r\nHost: x\r\nX-Bad\u0000: y\r\n${closing}`,
        `GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n${closing}`,
        `GET / HTTP/1.1\r\nHost: x\r\nX-Long: ${'x'.repeat(64 * 1024)}\r\n${closing}`,
        `GET / HTTP/9.9\r\nHost: x\r\n${closing}`,
        'GARBAGE\r\n\r\n',
      ]) {
        const what = JSON.stringify(raw.slice(0, 60))
        const answer = await rawRequest(target.url, raw)
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)
        // 505 is the precise answer to an unknown HTTP version (nginx gives it).
        const versionRefused = raw.includes('HTTP/9.9') && status === 505
        assert.ok((status >= 400 && status < 500) || versionRefused, `${what} answered ${status}`)
        assertNoLeak(answer, what)
        assert.match(answer, /content-security-policy:/i, `${what}: security headers`)
      }
      await assertStillServing(target)
    },
  },
  {
    name: 'bad input: malformed query strings are ignored',
    async run(target) {
      for (const query of ['?%%%=&&==', '?a[]=1&a[b]=2&__proto__[x]=1', '?%zz', '?x=%00']) {
        const page = await request(target.url, `/${query}`)
        assert.equal(page.status, 200, query)
        const other = await request(target.url, `/foo${query}`)
        assert.equal(other.status, 302, query)
        assert.equal(other.headers.location, homeFor(target, `/foo${query}`))
      }
    },
  },
  {
    name: 'bad input: unknown or unusual methods never crash the server',
    serversWeRunOnly: true,
    async run(target) {
      for (const method of ['PROPFIND', 'DELETE', 'PUT', 'TRACE', 'OPTIONS']) {
        const res = await request(target.url, '/index.html', { method })
        assert.ok(res.status >= 400 && res.status < 500, `${method} answered ${res.status}`)
        assertNoLeak(res, method)
      }
      const raw = await rawRequest(
        target.url,
        'FOO / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      )
      assert.match(raw, /^HTTP\/1\.1 4\d\d/)
      await assertStillServing(target)
    },
  },
  {
    name: 'bad input: an absolute-form request target does not escape dist',
    serversWeRunOnly: true,
    async run(target) {
      const raw = await rawRequest(
        target.url,
        'GET http://evil.example/../secret.txt HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      )
      assert.doesNotMatch(raw, /^HTTP\/1\.1 5/)
      assertNoLeak(raw, 'absolute-form')
      await assertStillServing(target)
    },
  },
]

/**
 * A build with the content editor (CMS_GIT_HOST): the editor at /admin/ under headers of its
 * own, one policy and not two, and every page of the site under the site's, not weakened.
 */
export const EDITOR_CHECKS: ServingCheck[] = [
  {
    name: 'the editor is served at /admin/ under its own policy, and only there',
    async run(target) {
      assert.ok(target.build.editor, 'a build with the editor')
      const expected = editorSecurityHeaders({ ...target.build, editor: target.build.editor })
      const redirect = await request(target.url, '/admin')
      if (redirect.status !== 200) {
        assert.ok([301, 308].includes(redirect.status), `/admin answers ${redirect.status}`)
        assert.equal(redirect.headers.location, '/admin/')
      }
      for (const path of ['/admin/', ...(redirect.status === 200 ? ['/admin'] : [])]) {
        const res = await request(target.url, path)
        assert.equal(res.status, 200, path)
        assert.ok(res.text.includes(EDITOR_PAGE_MARKER), `${path} is the editor's page`)
        for (const [name, value] of Object.entries(expected))
          assert.equal(header(res, name), value, `${name} on ${path}`)
      }
      const bundle = await request(target.url, '/admin/decap-cms.js')
      assert.equal(bundle.status, 200)
      assert.equal(header(bundle, 'content-security-policy'), expected['content-security-policy'])
      for (const path of ['/', '/tyc', '/assets/app-abc123.js'])
        assertSecurityHeaders(await request(target.url, path), target.build, path)
    },
  },
]
