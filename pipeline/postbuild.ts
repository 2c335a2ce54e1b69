// Last step of `npm run build` (pipeline/build.mjs loads it through Vite's module runner).
// 1. Precompresses every text file to .br and .gz so neither the Node server nor nginx
//    compresses at request time.
// 2. Writes the static-host rules from what the Node server does: the headers (nginx include,
//    _headers) from the same header logic, the redirects (_redirects) from the same pages and
//    files.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { extname, join, resolve, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { COMPRESSIBLE } from '../server/http/index.js'
import { editorSecurityHeaders, securityHeaders } from '../server/http/index.js'
import { readSiteBuild, readSitePages } from '../server/http/index.js'
import {
  headersFile,
  nginxEditorRules,
  nginxSecurityHeaders,
  redirectsFile,
} from './static-host-rules.js'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export const NGINX_HEADERS_FILE = '.deploy/security-headers.conf'
export const NGINX_EDITOR_FILE = '.deploy/editor.conf'
export const HEADERS_FILE = '_headers'
export const REDIRECTS_FILE = '_redirects'

/** Files a server may serve: dotfiles and dot-directories (.site.json, .deploy/) excluded. */
async function servedFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true })
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map(async (entry) => {
        const relative = join(prefix, entry.name)
        if (entry.isDirectory()) return servedFiles(dir, relative)
        return entry.isFile() ? [relative] : []
      }),
  )
  return nested.flat()
}

async function compressFile(file: string): Promise<void> {
  const source = await readFile(file)
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
  ])
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)])
}

/** Runs `work` over `items` with at most `limit` in flight (zlib runs on the libuv pool). */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

export interface PostbuildResult {
  compressed: string[]
}

/** The files of the site itself, as URL paths: not the precompressed copies, not host rules. */
function siteFiles(files: readonly string[]): string[] {
  const all = new Set(files)
  return files
    .filter((file) => ![HEADERS_FILE, REDIRECTS_FILE].includes(file))
    .filter((file) => !(/\.(br|gz)$/.test(file) && all.has(file.replace(/\.(br|gz)$/, ''))))
    .map((file) => `/${file.split(sep).join('/')}`)
}

/**
 * @param host where the build is deployed, when it is a static host whose rules differ
 *   (Netlify reads the editor's header rule its own way)
 */
export async function postbuild(
  distDir: string,
  host: 'netlify' | 'cloudflare' = 'cloudflare',
): Promise<PostbuildResult> {
  const dist = resolve(distDir)
  const build = readSiteBuild(dist)
  const pages = readSitePages(dist)
  const files = await servedFiles(dist)
  const compressed = files.filter((file) => COMPRESSIBLE.has(extname(file).toLowerCase()))
  await eachLimited(compressed, Math.max(2, availableParallelism()), (file) =>
    compressFile(join(dist, file)),
  )
  const headers = securityHeaders(build)
  const editorHeaders = build.editor
    ? editorSecurityHeaders({ ...build, editor: build.editor })
    : null
  await mkdir(join(dist, '.deploy'), { recursive: true })
  await writeFile(join(dist, NGINX_HEADERS_FILE), nginxSecurityHeaders(headers))
  await writeFile(join(dist, NGINX_EDITOR_FILE), nginxEditorRules(headers, editorHeaders))
  await writeFile(
    join(dist, HEADERS_FILE),
    headersFile(headers, editorHeaders && { headers: editorHeaders, host }),
  )
  await writeFile(
    join(dist, REDIRECTS_FILE),
    redirectsFile(pages, siteFiles(files), editorHeaders !== null),
  )
  return { compressed }
}
