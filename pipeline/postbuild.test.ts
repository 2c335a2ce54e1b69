import { access, readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HEADERS_FILE, NGINX_HEADERS_FILE, REDIRECTS_FILE, postbuild } from './postbuild.js'
import {
  IMMUTABLE_CACHE,
  editorSecurityHeaders,
  securityHeaders,
} from '../server/http/security-headers.js'
import {
  CLOUDFLARE_LIMITS,
  headersFile,
  nginxEditorRules,
  redirectsFile,
} from './static-host-rules.js'
import {
  EDITOR_BUILD,
  FAKE_PAGES,
  OWN_SERVER_BUILD,
  makeFakeDist,
  type FakeDist,
} from '../testing/server/fake-dist.js'

let dist: FakeDist
beforeAll(async () => {
  dist = await makeFakeDist() // runs postbuild
})
afterAll(async () => {
  await rm(dist.root, { recursive: true, force: true })
})

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

describe('postbuild', () => {
  it('precompresses every text file to .br and .gz that decompress to the original', async () => {
    const text = [...dist.files.keys()].filter((path) => !/\.(png|woff2)$/.test(path))
    expect(text.length).toBeGreaterThan(8)
    for (const path of text) {
      const original = dist.files.get(path)
      const file = join(dist.dist, path)
      expect(brotliDecompressSync(await readFile(`${file}.br`)), path).toEqual(original)
      expect(gunzipSync(await readFile(`${file}.gz`)), path).toEqual(original)
    }
  })

  it('leaves binary files, dotfiles and its own outputs uncompressed', async () => {
    for (const path of [
      '/og-image.png',
      '/assets/inter-9f8e7d.woff2',
      '/.site.json',
      '/_headers',
      '/_redirects',
    ]) {
      expect(await exists(join(dist.dist, `${path}.br`)), path).toBe(false)
    }
    expect((await readdir(join(dist.dist, '.deploy'))).sort()).toEqual([
      'editor.conf',
      'security-headers.conf',
    ])
  })

  it('writes the nginx headers include from the same header map', async () => {
    const conf = await readFile(join(dist.dist, NGINX_HEADERS_FILE), 'utf8')
    for (const [name, value] of Object.entries(securityHeaders(OWN_SERVER_BUILD))) {
      expect(conf).toContain(`add_header ${name} "${value.replace(/"/g, '\\"')}" always;`)
    }
  })

  it('writes _headers for Netlify / Cloudflare Pages', async () => {
    const headers = await readFile(join(dist.dist, HEADERS_FILE), 'utf8')
    const [all, assets] = headers.split('/assets/*')
    for (const [name, value] of Object.entries(securityHeaders(OWN_SERVER_BUILD))) {
      expect(all).toContain(`  ${name}: ${value}\n`)
    }
    expect(all).not.toMatch(/cache-control/i)
    expect(assets).toContain(`  cache-control: ${IMMUTABLE_CACHE}`)
  })

  it('writes _redirects: each page and file passes through to itself, anything else goes home', async () => {
    const redirects = await readFile(join(dist.dist, REDIRECTS_FILE), 'utf8')
    const rules = redirects.split('\n').filter((line) => line !== '' && !line.startsWith('#'))
    const files = [...dist.files.keys()].filter((path) => !path.startsWith('/assets/')).sort()
    expect(files).toContain('/tyc.html')
    expect(rules).toEqual([
      '/ / 200',
      '/tyc /tyc 200',
      '/tyc/ /tyc 200',
      ...files.map((path) => `${path} ${path} 200`),
      '/assets/* /assets/:splat 200',
      '/* / 302',
    ])
  })

  it('refuses rules Cloudflare Pages would drop without an error', () => {
    const longPolicy = `default-src 'self' ${'https://a.example '.repeat(120)}`
    expect(longPolicy.length).toBeGreaterThan(CLOUDFLARE_LIMITS.lineLength)
    expect(() => headersFile({ 'content-security-policy': longPolicy })).toThrow(
      /_headers: a line of \d+ characters \(content-security-policy: default-src/,
    )
    const manyFiles = Array.from(
      { length: CLOUDFLARE_LIMITS.staticRedirects },
      (_, i) => `/f${i}.png`,
    )
    expect(() => redirectsFile(FAKE_PAGES, manyFiles)).toThrow(/more than the 2000/)
    expect(() => redirectsFile(FAKE_PAGES, ['/with space.png'])).toThrow(/cannot hold/)
  })

  it('is idempotent: running it again compresses no compressed file', async () => {
    const { compressed } = await postbuild(dist.dist)
    expect(compressed.some((file) => /\.(br|gz)$/.test(file))).toBe(false)
    expect(compressed).toHaveLength(dist.files.size - 2)
  })

  it('fails clearly when there is no build', async () => {
    await expect(postbuild(join(dist.root, 'missing'))).rejects.toThrow(/Run npm run build first/)
  })
})

describe('the static hosts’ rules for a build with the content editor', () => {
  const site = securityHeaders(OWN_SERVER_BUILD)
  const editor = editorSecurityHeaders({ ...EDITOR_BUILD, editor: EDITOR_BUILD.editor! })
  const rulesFor = (text: string, pattern: string) =>
    text
      .split(/\n(?=\S)/)
      .find((block) => block.startsWith(`${pattern}\n`))
      ?.split('\n')
      .slice(1)

  it('on Cloudflare Pages, detaches the site’s headers below /admin before it sets the editor’s', () => {
    const text = headersFile(site, { headers: editor, host: 'cloudflare' })
    for (const pattern of ['/admin', '/admin/*']) {
      const lines = rulesFor(text, pattern)!
      expect(lines).toContain('  ! content-security-policy')
      expect(lines).toContain('  ! cross-origin-opener-policy')
      expect(lines).toContain(`  content-security-policy: ${editor['content-security-policy']}`)
    }
    expect(rulesFor(text, '/*')).toContain(
      `  content-security-policy: ${site['content-security-policy']}`,
    )
  })

  it('on Netlify, sets the editor’s headers in a later rule, which wins, with no "!" it would refuse', () => {
    const text = headersFile(site, { headers: editor, host: 'netlify' })
    expect(text).not.toMatch(/^\s+!/m)
    expect(text.indexOf('/admin/*\n')).toBeGreaterThan(text.indexOf('/*\n'))
    expect(rulesFor(text, '/admin/*')).toContain(
      `  content-security-policy: ${editor['content-security-policy']}`,
    )
  })

  it('passes /admin/ through to the editor’s page only when the build has one', () => {
    const files = ['/admin/index.html', '/admin/decap-cms.js']
    const withEditor = redirectsFile(FAKE_PAGES, files, true).split('\n')
    expect(withEditor).toContain('/admin/ /admin/ 200')
    expect(withEditor).toContain('/admin /admin/ 301')
    expect(redirectsFile(FAKE_PAGES, [], false)).not.toContain('/admin')
  })

  it('gives nginx the editor’s headers at /admin, or the site’s when there is no editor', () => {
    const withEditor = nginxEditorRules(site, editor)
    expect(withEditor).toContain(
      "add_header content-security-policy \"default-src 'self'; script-src 'self' 'unsafe-eval'",
    )
    expect(withEditor).toContain('location = /admin/ { try_files /admin/index.html =404; }')
    const without = nginxEditorRules(site, null)
    expect(without).not.toContain('unsafe-eval')
    expect(without).toContain('return 302 /;')
  })
})
