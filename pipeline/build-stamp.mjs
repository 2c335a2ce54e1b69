// What a build was made from: a hash of its sources and one of its build-time settings, written
// to <outDir>/.build-stamp.json by pipeline/build.mjs. The e2e run rebuilds when they differ from
// the working tree's, and npm start warns, so a stale dist/ is never tested or served by surprise.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
export const STAMP_FILE = '.build-stamp.json'

/** Everything the build reads; tests are left out, as they do not change what is built. */
const SOURCES = [
  'src',
  'content',
  'server',
  'public',
  'index.html',
  'tyc.html',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.server.json',
  'package-lock.json',
  'pipeline',
  '.env',
  '.env.local',
  '.env.production',
  '.env.production.local',
]
const IS_TEST = /\.test\.tsx?$|[\\/]testing[\\/]/

function sourceFiles(path) {
  const absolute = join(ROOT, path)
  if (!existsSync(absolute)) return []
  if (!statSync(absolute).isDirectory()) return [absolute]
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !IS_TEST.test(relative(ROOT, file)))
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex')

/** The stamp a build of the working tree with these settings would carry. */
export function currentStamp(env = process.env) {
  const files = SOURCES.flatMap(sourceFiles).sort()
  const sources = createHash('sha256')
  for (const file of files)
    sources.update(`${relative(ROOT, file)}\0${sha256(readFileSync(file))}\n`)
  const settings = Object.entries(env)
    .filter(([name]) => name.startsWith('VITE_') || name === 'SITE_URL')
    .sort(([a], [b]) => a.localeCompare(b))
  return { sources: sources.digest('hex'), settings: sha256(JSON.stringify(settings)) }
}

export function readStamp(outDir) {
  try {
    return JSON.parse(readFileSync(join(outDir, STAMP_FILE), 'utf8'))
  } catch {
    return null
  }
}

/**
 * Why the build in outDir does not match the working tree (and, with compareSettings, these
 * settings); null when it does.
 */
export function staleReason(outDir, { env = process.env, compareSettings = true } = {}) {
  const built = readStamp(outDir)
  if (built === null) return `${outDir}/ has no ${STAMP_FILE}: it was not built by this version`
  const now = currentStamp(env)
  if (built.sources !== now.sources) return `${outDir}/ was built from other sources than these`
  if (compareSettings && built.settings !== now.settings)
    return `${outDir}/ was built with other VITE_* / SITE_URL settings than these`
  return null
}
