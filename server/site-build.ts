// Reads the build description (dist/.site.json) that the front-end build writes, and checks
// every value before it reaches a response header: a stray quote, semicolon or newline in a
// CSP source would otherwise break or widen the policy.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export type SiteMode = 'local' | 'service'

export interface SiteBuild {
  /** 'local' when the site was built without an e-mail service key: the server stands in for it. */
  mode: SiteMode
  /** Origin of the sending API in service mode (e.g. https://api.emailjs.com); null in local mode. */
  apiOrigin: string | null
  /** CSP hash sources ('sha256-…') for inline scripts in the prerendered HTML. */
  scriptHashes: string[]
  /** CSP hash sources for inline styles. */
  styleHashes: string[]
  frameOrigins: string[]
  scriptOrigins: string[]
  connectOrigins: string[]
  /** The content editor at /admin/, when the build ships one: what its own policy allows. */
  editor: EditorOrigins | null
}

export interface EditorOrigins {
  connectOrigins: string[]
  imageOrigins: string[]
}

const SITE_BUILD_FILE = '.site.json'

export class SiteBuildError extends Error {
  override name = 'SiteBuildError'
}

const HASH_SOURCE = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * An origin such as https://api.emailjs.com: https only (http just for loopback, in tests).
 * @internal its tests use it too
 */
export function isOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))
  return secure && url.origin === value
}

function list(
  raw: Record<string, unknown>,
  key: keyof SiteBuild,
  valid: (value: string) => boolean,
  what: string,
): string[] {
  const value = raw[key] ?? []
  if (!Array.isArray(value)) throw new SiteBuildError(`${key} must be an array of ${what}`)
  return value.map((item: unknown) => {
    if (typeof item !== 'string' || !valid(item)) {
      throw new SiteBuildError(`${key} holds ${JSON.stringify(item)}, which is not ${what}`)
    }
    return item
  })
}

/**
 * Validates a parsed .site.json; throws SiteBuildError naming the first bad field.
 * @internal its tests use it too
 */
export function parseSiteBuild(raw: unknown): SiteBuild {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SiteBuildError('the build description must be a JSON object')
  }
  const record = raw as Record<string, unknown>
  const mode = record.mode
  if (mode !== 'local' && mode !== 'service') {
    throw new SiteBuildError(`mode must be "local" or "service", not ${JSON.stringify(mode)}`)
  }
  const apiOrigin = record.apiOrigin ?? null
  if (apiOrigin !== null && !isOrigin(apiOrigin)) {
    throw new SiteBuildError(`apiOrigin ${JSON.stringify(apiOrigin)} is not an https origin`)
  }
  if (mode === 'service' && apiOrigin === null) {
    throw new SiteBuildError('apiOrigin is required in service mode')
  }
  const isHash = (value: string): boolean => HASH_SOURCE.test(value)
  return {
    mode,
    apiOrigin,
    scriptHashes: list(record, 'scriptHashes', isHash, "a CSP hash source like 'sha256-…'"),
    styleHashes: list(record, 'styleHashes', isHash, "a CSP hash source like 'sha256-…'"),
    frameOrigins: list(record, 'frameOrigins', isOrigin, 'an https origin'),
    scriptOrigins: list(record, 'scriptOrigins', isOrigin, 'an https origin'),
    connectOrigins: list(record, 'connectOrigins', isOrigin, 'an https origin'),
    editor: parseEditor(record.editor ?? null),
  }
}

function parseEditor(raw: unknown): EditorOrigins | null {
  if (raw === null) return null
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new SiteBuildError('editor must be an object or null')
  const record = raw as Record<string, unknown>
  const origins = (key: string) => {
    const value = record[key] ?? []
    if (!Array.isArray(value) || !value.every(isOrigin))
      throw new SiteBuildError(`editor.${key} must be an array of https origins`)
    return value as string[]
  }
  return { connectOrigins: origins('connectOrigins'), imageOrigins: origins('imageOrigins') }
}

/** A page the build wrote: its address and its file below dist/. */
export interface SitePage {
  path: string
  file: string
}

const PAGE_PATH = /^\/[a-z0-9-]*$/
const PAGE_FILE = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.html$/

/**
 * The pages of a parsed .site.json (src/config/site.ts, written by the prerender). Addresses and
 * file names are checked because postbuild writes them into the static hosts' redirect rules.
 * @internal its tests use it too
 */
export function parseSitePages(raw: unknown): SitePage[] {
  const pages =
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).pages : undefined
  if (!Array.isArray(pages) || pages.length === 0) {
    throw new SiteBuildError('pages must list the pages the build wrote')
  }
  return pages.map((page: unknown) => {
    const { path, file } = (typeof page === 'object' && page !== null ? page : {}) as Record<
      string,
      unknown
    >
    if (typeof path !== 'string' || !PAGE_PATH.test(path)) {
      throw new SiteBuildError(`pages holds the address ${JSON.stringify(path)}`)
    }
    if (typeof file !== 'string' || !PAGE_FILE.test(file)) {
      throw new SiteBuildError(`pages holds the file ${JSON.stringify(file)} for ${path}`)
    }
    return { path, file }
  })
}

/** Reads and parses <distDir>/.site.json; the message says what to do when it is missing. */
function readSiteFacts<T>(distDir: string, parse: (raw: unknown) => T): T {
  if (!existsSync(distDir) || !statSync(distDir).isDirectory()) {
    throw new SiteBuildError(`No site build at ${distDir}. Run npm run build first.`)
  }
  const file = join(distDir, SITE_BUILD_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new SiteBuildError(
      `${file} is missing: the build did not finish. Run npm run build first.`,
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new SiteBuildError(`${file} is not valid JSON. Run npm run build first.`)
  }
  try {
    return parse(raw)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SiteBuildError(`${file}: ${reason}`)
  }
}

/** Reads <distDir>/.site.json; the message says what to do when the build is missing. */
export function readSiteBuild(distDir: string): SiteBuild {
  return readSiteFacts(distDir, parseSiteBuild)
}

/** The pages <distDir>/.site.json lists. */
export function readSitePages(distDir: string): SitePage[] {
  return readSiteFacts(distDir, parseSitePages)
}
