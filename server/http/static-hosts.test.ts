// The production build served the ways a business hosts it, checked address by address against
// each other: our Node server, Cloudflare's own runtime for Pages (whose `_headers` and
// `_redirects` Netlify reads too) and, where it is installed, nginx with deploy/nginx.conf.
// What a visitor or a search engine gets must not depend on the host.
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { nginxInstalled } from '../../testing/server/nginx.js'
import { HEADERS_FILE, REDIRECTS_FILE } from '../../pipeline/postbuild.js'
import { IMMUTABLE_CACHE, securityHeaders } from './security-headers.js'
import { CLOUDFLARE_LIMITS } from '../../pipeline/static-host-rules.js'
import { request, type HttpResponse } from '../../testing/server/http.js'
import { WRANGLER_BIN } from '../../testing/server/pages-runtime.js'
import { TEST_SERVER_DIR } from '../../testing/server/compiled-server.js'
import {
  REPO_ROOT,
  buildSite,
  processGroupAlive,
  startSite,
  type RunningSite,
} from '../../testing/site.js'
import { readSiteBuild, type SiteBuild } from './site-build.js'

const missing = 'wrangler could not be installed into testing/tools/ (see the warning above)'
// In CI a missing runtime is a failure, never a quiet skip.
const required = process.env.CI === 'true'
const installed = WRANGLER_BIN !== null
if (!installed && !required) console.warn(`Skipping the static host tests: ${missing}`)

describe.runIf(required)('Cloudflare Pages runtime in CI', () => {
  it('is installed, so the static-host rules are checked against it', () => {
    expect(installed, missing).toBe(true)
  })
})

/** The public origin the test build is made for: canonical URLs, the sitemap, robots.txt. */
const TEST_SITE_URL = 'https://gaspre.mx'

interface SitePage {
  path: string
  file: string
}

interface ProductionBuild {
  dist: string
  build: SiteBuild
  /** The pages the build wrote (dist/.site.json), each with its address and file. */
  pages: SitePage[]
  siteUrl: string
}

/**
 * The real production build, in a directory of its own: `npm test` builds dist/ and
 * build/server/ at the same time in another lane, and the server tests run once per supported
 * Node line, so each line gets its own build in build/hosts-node<N>/, with the server the tests
 * compile for that line. Own-server mode, whatever this shell has set: no e-mail service, no static
 * host's build settings.
 */
async function buildProductionSite(): Promise<ProductionBuild> {
  const root = join(REPO_ROOT, 'build', `hosts-node${process.versions.node.split('.')[0]}`)
  const { dir } = await buildSite({
    outDir: join(root, 'dist'),
    ssrDir: join(root, 'ssr'),
    serverDir: TEST_SERVER_DIR,
    settings: { SITE_URL: TEST_SITE_URL },
    baseEnv: Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^(VITE_|CF_PAGES|NETLIFY|NODE_ENV$)/.test(name),
      ),
    ),
  })
  const facts = JSON.parse(await readFile(join(dir, '.site.json'), 'utf8')) as {
    pages?: SitePage[]
  }
  if (!Array.isArray(facts.pages) || facts.pages.length === 0) {
    throw new Error(`the build lists no pages in ${dir}/.site.json`)
  }
  return { dist: dir, build: readSiteBuild(dir), pages: facts.pages, siteUrl: TEST_SITE_URL }
}

interface Host {
  name: string
  url: string
}

const header = (res: HttpResponse, name: string): string => {
  const value = res.headers[name]
  return Array.isArray(value) ? value.join(', ') : (value ?? '')
}

/** Whether a cache must ask the host again before it reuses the answer. */
const revalidates = (cacheControl: string): boolean =>
  /\bno-cache\b|\bno-store\b/.test(cacheControl) ||
  (/\bmax-age=0\b/.test(cacheControl) && /\bmust-revalidate\b/.test(cacheControl))

const describeAnswer = (res: HttpResponse): string =>
  `${res.status}${res.headers.location ? ` → ${res.headers.location}` : ''}`

describe.skipIf(!installed)('the production build on each host', () => {
  let site: ProductionBuild
  let server: AppOnStore | undefined
  let pages: RunningSite | undefined
  let nginx: RunningSite | undefined
  const hosts: Host[] = []
  let asset = ''

  /** Runs `check` on every host; returns what went wrong, one line each, for a readable diff. */
  async function onEachHost(check: (host: Host) => Promise<(string | null)[]>): Promise<string[]> {
    const problems: string[] = []
    for (const host of hosts) {
      for (const problem of await check(host)) {
        if (problem !== null) problems.push(`${host.name}: ${problem}`)
      }
    }
    return problems
  }

  beforeAll(async () => {
    site = await buildProductionSite()
    const home = await readFile(join(site.dist, 'index.html'), 'utf8')
    asset = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(home)?.[1] ?? ''
    // On a socket: every host is checked with the same client, over HTTP.
    server = await appOnTemporaryStore({ distDir: site.dist })
    hosts.push({
      name: 'Node server',
      url: await server.app.listen({ port: 0, host: '127.0.0.1' }),
    })
    pages = await startSite({ host: 'pages', build: { dir: site.dist } })
    hosts.push({ name: 'Cloudflare Pages', url: pages.origin })
    if (nginxInstalled()) {
      nginx = await startSite({ host: 'nginx', build: { dir: site.dist } })
      hosts.push({ name: 'nginx', url: nginx.origin })
    }
  }, 300_000)

  afterAll(async () => {
    await server?.close()
    await nginx?.stop()
    if (pages) {
      await pages.stop()
      // Nothing of it outlives the tests: no wrangler, no workerd.
      expect(processGroupAlive(pages.child.pid!), 'the Pages runtime left a process behind').toBe(
        false,
      )
    }
  })

  it('has a hashed script to check assets with', () => {
    expect(asset).toMatch(/^\/assets\/.+-[\w-]{8}\.js$/)
  })

  it('every page and every address in the sitemap answers 200 itself, with no redirect hop', async () => {
    const sitemap = await readFile(join(site.dist, 'sitemap.xml'), 'utf8')
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!)
    expect(listed).toEqual(site.pages.map((page) => `${site.siteUrl}${page.path}`))
    const problems = await onEachHost(async (host) =>
      Promise.all(
        site.pages.map(async (page) => {
          const res = await request(host.url, page.path)
          if (res.status !== 200) return `${page.path} answered ${describeAnswer(res)}`
          const file = await readFile(join(site.dist, page.file))
          return res.body.equals(file) ? null : `${page.path} is not ${page.file}`
        }),
      ),
    )
    expect(problems).toEqual([])
  })

  it('every internal link and reference on the pages points at an address that answers 200 itself', async () => {
    const origin = new URL(site.siteUrl).origin
    const pagePaths = new Set(site.pages.map((page) => page.path))
    const linkProblems: string[] = []
    const references = new Set<string>()
    for (const page of site.pages) {
      const html = await readFile(join(site.dist, page.file), 'utf8')
      const base = new URL(page.path, origin)
      const internal = (raw: string): URL | null => {
        const url = new URL(raw.replace(/&amp;/g, '&'), base)
        return url.origin === origin ? url : null
      }
      for (const [, href] of html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)) {
        const url = internal(href!)
        if (url !== null && !pagePaths.has(url.pathname)) {
          linkProblems.push(`${page.path} links to ${href}, which is not a page of the site`)
        }
      }
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]
      if (canonical !== `${site.siteUrl}${page.path}`) {
        linkProblems.push(`${page.path} names ${canonical} as its canonical address`)
      }
      for (const [, value] of html.matchAll(/\s(?:href|src|content)="([^"]*)"/g)) {
        if (!/^(\/(?!\/)|https?:)/.test(value!)) continue
        const url = internal(value!)
        if (url !== null) references.add(url.pathname + url.search)
      }
    }
    expect(linkProblems).toEqual([])
    expect(references.size).toBeGreaterThan(site.pages.length)
    const problems = await onEachHost(async (host) =>
      Promise.all(
        [...references].map(async (path) => {
          const res = await request(host.url, path, { method: 'HEAD' })
          return res.status === 200 ? null : `${path} answered ${describeAnswer(res)}`
        }),
      ),
    )
    expect(problems).toEqual([])
  })

  it('the same security headers, with the same values, on a page, an asset, the share image and a missing path', async () => {
    const expected = securityHeaders(site.build)
    const problems = await onEachHost(async (host) => {
      const found: (string | null)[] = []
      for (const path of [
        '/',
        '/tyc',
        asset,
        '/og-image.png',
        '/assets/no-existe.js',
        '/no-existe',
      ]) {
        const res = await request(host.url, path)
        for (const [name, value] of Object.entries(expected)) {
          const sent = header(res, name)
          found.push(sent === value ? null : `${name} on ${path} (${res.status}) is "${sent}"`)
        }
      }
      return found
    })
    expect(problems).toEqual([])
  })

  it('hashed assets are cached for a year, immutable; pages and missing paths revalidate', async () => {
    const problems = await onEachHost(async (host) => {
      const found: (string | null)[] = []
      const cached = header(await request(host.url, asset), 'cache-control')
      found.push(cached === IMMUTABLE_CACHE ? null : `${asset} is cached "${cached}"`)
      for (const path of [...site.pages.map((page) => page.path), '/assets/no-existe.js']) {
        const res = await request(host.url, path)
        const cache = header(res, 'cache-control')
        found.push(revalidates(cache) ? null : `${path} (${res.status}) is cached "${cache}"`)
      }
      return found
    })
    expect(problems).toEqual([])
  })

  it('an unknown path ends on / with a redirect; a missing asset is a 404', async () => {
    const problems = await onEachHost(async (host) => {
      const found: (string | null)[] = []
      for (const path of ['/no-existe', '/precios?utm_source=ad', '/tyc/otra', '/carpeta/']) {
        const res = await request(host.url, path)
        const location = new URL(header(res, 'location') || 'none:', 'http://host')
        const home = res.status === 302 && location.pathname === '/'
        found.push(home ? null : `${path} answered ${describeAnswer(res)}`)
      }
      const asset = await request(host.url, '/assets/no-existe.js')
      found.push(asset.status === 404 ? null : `/assets/no-existe.js answered ${asset.status}`)
      return found
    })
    expect(problems).toEqual([])
  })

  it('_headers and _redirects stay within what Cloudflare Pages reads, and it reads all of them', async () => {
    const headers = await readFile(join(site.dist, HEADERS_FILE), 'utf8')
    const redirects = await readFile(join(site.dist, REDIRECTS_FILE), 'utf8')
    const cspLine = headers.split('\n').find((line) => /content-security-policy:/i.test(line))
    console.log(
      `${HEADERS_FILE}: the CSP line is ${cspLine?.length ?? 0} of ${CLOUDFLARE_LIMITS.lineLength} characters`,
    )
    for (const line of [...headers.split('\n'), ...redirects.split('\n')]) {
      expect(line.length, line.slice(0, 60)).toBeLessThanOrEqual(CLOUDFLARE_LIMITS.lineLength)
    }
    // Every rule the files hold is one the runtime kept: it drops a bad line with a warning only.
    const rules = (text: string) => text.split('\n').filter((line) => /^[^#\s]/.test(line))
    const headerRules = rules(headers).length
    const redirectRules = rules(redirects).length
    const log = pages!.lines.join('\n')
    expect(log).not.toMatch(/invalid|ignor|skipping/i)
    expect(log).toContain(`Parsed ${headerRules} valid header rules`)
    expect(log).toContain(`Parsed ${redirectRules} valid redirect rules`)
  })

  afterAll(async () => {
    // The side-by-side view the deploy guide quotes: status and headers of a page, the terms,
    // an asset and a missing page on each host, written beside the build for a reader.
    if (hosts.length === 0) return
    const paths = ['/', '/tyc', asset, '/no-existe']
    const names = new Set<string>()
    const answers = new Map<string, HttpResponse>()
    for (const host of hosts) {
      for (const path of paths) {
        const res = await request(host.url, path)
        answers.set(`${host.name} ${path}`, res)
        for (const name of Object.keys(res.headers)) names.add(name)
      }
    }
    const varying = ['date', 'etag', 'last-modified', 'content-length', 'connection', 'keep-alive']
    const rows = ['status', ...[...names].filter((name) => !varying.includes(name)).sort()]
    const cell = (res: HttpResponse, row: string): string => {
      if (row === 'status') return String(res.status)
      const value = header(res, row)
      if (value.length <= 48) return value || '—'
      // A long policy shows its start and a digest, so equal values read as equal.
      const digest = createHash('sha256').update(value).digest('hex').slice(0, 8)
      return `${value.slice(0, 24)}… (${value.length} chars, sha256 ${digest})`
    }
    const table = paths
      .flatMap((path) => [
        `GET ${path}`,
        '',
        `| | ${hosts.map((host) => host.name).join(' | ')} |`,
        `| --- | ${hosts.map(() => '---').join(' | ')} |`,
        ...rows.map(
          (row) =>
            `| ${row} | ${hosts.map((host) => cell(answers.get(`${host.name} ${path}`)!, row)).join(' | ')} |`,
        ),
        '',
      ])
      .join('\n')
    const file = join(site.dist, '..', 'hosts-side-by-side.md')
    await writeFile(file, table)
    console.log(`The side-by-side table of the hosts' answers: ${file}`)
  })
})
