// The real production build, made for the host tests in a directory of their own: `npm test`
// builds dist/ and build/server/ at the same time in another lane, and the server tests run once
// per supported Node line, so each Node line gets its own build in build/hosts-node<N>/, with
// the server the tests compile for that line.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readSiteBuild, type SiteBuild } from '../../server/site-build.js'
import { REPO_ROOT, TEST_SERVER_DIR, compileServer } from './spawn-server.js'

/** The public origin the test build is made for: canonical URLs, the sitemap, robots.txt. */
export const TEST_SITE_URL = 'https://gaspre.mx'

export interface SitePage {
  path: string
  file: string
}

export interface ProductionBuild {
  dist: string
  build: SiteBuild
  /** The pages the build wrote (dist/.site.json), each with its address and file. */
  pages: SitePage[]
  siteUrl: string
}

const ROOT = join(REPO_ROOT, 'build', `hosts-node${process.versions.node.split('.')[0]}`)

/** `node pipeline/build.mjs` for TEST_SITE_URL, whatever this shell has set. */
export async function buildProductionSite(): Promise<ProductionBuild> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    // Local mode, wherever the tests run: no e-mail service, no static host's build settings.
    Object.entries(process.env).filter(([name]) => !/^(VITE_|CF_PAGES|NETLIFY)/.test(name)),
  )
  const dist = join(ROOT, 'dist')
  compileServer()
  Object.assign(env, {
    SITE_URL: TEST_SITE_URL,
    BUILD_OUT_DIR: dist,
    BUILD_SSR_DIR: join(ROOT, 'ssr'),
    BUILD_SERVER: 'reuse',
    BUILD_SERVER_DIR: TEST_SERVER_DIR,
  })
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['pipeline/build.mjs'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`the build failed (${code}):\n${text}`)),
    )
  })
  const facts = JSON.parse(readFileSync(join(dist, '.site.json'), 'utf8')) as { pages?: SitePage[] }
  if (!Array.isArray(facts.pages) || facts.pages.length === 0) {
    throw new Error(`the build lists no pages in .site.json:\n${output}`)
  }
  return { dist, build: readSiteBuild(dist), pages: facts.pages, siteUrl: TEST_SITE_URL }
}
