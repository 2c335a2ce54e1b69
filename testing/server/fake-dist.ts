// A small stand-in for the front-end build, so the server tests never depend on it. Written to
// <root>/dist with a secret file beside it (<root>/secret.txt) that no request may ever read.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { postbuild } from '../../pipeline/postbuild.js'
import type { SiteBuild, SitePage } from '../../server/http/site-build.js'
import { bookingTexts, formMessageTexts } from '../content.js'

export const SECRET_MARKER = 'OUTSIDE-DIST-SECRET-7f3a'

export interface FakeDist {
  root: string
  dist: string
  /** URL path → file content, for every file a server should serve. */
  files: Map<string, Buffer>
  /** The hashed script, the asset used for caching and compression checks. */
  asset: string
}

const page = (title: string, marker: string): string =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="stylesheet" href="/assets/style-def456.css"></head><body><h1>${title}</h1>` +
  `<p>${marker}</p>${'<p>Precios de combustible en tiempo real.</p>'.repeat(60)}` +
  `<script type="module" src="/assets/app-abc123.js"></script></body></html>`

export const OWN_SERVER_BUILD: SiteBuild = {
  mode: 'own-server',
  apiOrigin: null,
  scriptHashes: ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"],
  styleHashes: [],
  frameOrigins: ['https://www.youtube-nocookie.com'],
  scriptOrigins: [],
  connectOrigins: [],
  editor: null,
  formMessages: formMessageTexts,
  bookingTexts,
}

/** A build that ships the content editor at /admin/ (CMS_GIT_HOST=github). */
export const EDITOR_BUILD: SiteBuild = {
  ...OWN_SERVER_BUILD,
  editor: {
    connectOrigins: ['https://api.github.com', 'https://api.netlify.com'],
    imageOrigins: ['https://avatars.githubusercontent.com'],
  },
}

/** The editor's page, as the build writes it (editor/index.html). */
export const EDITOR_PAGE_MARKER = 'EDITOR-PAGE-MARKER'

/** The pages the fake build lists in .site.json, as the prerender writes them. */
export const FAKE_PAGES: SitePage[] = [
  { path: '/', file: 'index.html' },
  { path: '/tyc', file: 'tyc.html' },
]

export async function makeFakeDist(build: SiteBuild = OWN_SERVER_BUILD): Promise<FakeDist> {
  const root = await mkdtemp(join(tmpdir(), 'gaspre-dist-'))
  const dist = join(root, 'dist')
  const files = new Map<string, Buffer>([
    ['/index.html', Buffer.from(page('Gaspre', 'HOME-PAGE-MARKER'))],
    ['/tyc.html', Buffer.from(page('Términos y condiciones', 'TERMS-PAGE-MARKER'))],
    ['/404.html', Buffer.from(page('Página no encontrada', 'NOT-FOUND-MARKER'))],
    [
      '/assets/app-abc123.js',
      Buffer.from(`console.log("app");\n${'export const x = 1;\n'.repeat(400)}`),
    ],
    ['/assets/style-def456.css', Buffer.from('body{margin:0}\n'.repeat(100))],
    ['/assets/logo-123abc.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['/assets/inter-9f8e7d.woff2', Buffer.from([0x77, 0x4f, 0x46, 0x32, 0, 1, 2, 3])],
    ['/robots.txt', Buffer.from('User-agent: *\nAllow: /\n')],
    ['/sitemap.xml', Buffer.from('<?xml version="1.0"?><urlset></urlset>\n')],
    ['/site.webmanifest', Buffer.from('{"name":"Gaspre"}\n')],
    ['/favicon.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['/favicon.ico', Buffer.from([0, 0, 1, 0, 1, 0])],
    ['/og-image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ...(build.editor
      ? ([
          ['/admin/index.html', Buffer.from(page('Editor de contenido', EDITOR_PAGE_MARKER))],
          ['/admin/decap-cms.js', Buffer.from('console.log("cms");\n'.repeat(200))],
        ] as const)
      : []),
  ])
  for (const [path, content] of files) {
    const file = join(dist, path)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, content)
  }
  await writeFile(
    join(dist, '.site.json'),
    JSON.stringify({ ...build, pages: FAKE_PAGES }, null, 2),
  )
  await writeFile(join(root, 'secret.txt'), `${SECRET_MARKER}\n`)
  await postbuild(dist)
  return { root, dist, files, asset: '/assets/app-abc123.js' }
}
