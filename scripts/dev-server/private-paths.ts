// What the development server keeps to itself, checked on each request before Vite sees it: a
// Host that is not this machine's (a page reached by DNS rebinding), a hidden file or folder
// (.data, .git, .env…), a build, or the requests' DATA_DIR wherever it is.
import { relative, resolve } from 'node:path'

/** What the server never serves, at the top of the repository: the builds, and the data. */
export const PRIVATE_FOLDERS = [
  'dist',
  'build',
  'bench-results',
  'engines-results',
  'test-results',
  'playwright-report',
]

/** The Host values this server answers: this machine's names, on the port it listens on. */
export function allowedHosts(host: string, port: number): Set<string> {
  return new Set([host, '127.0.0.1', 'localhost'].map((name) => `${name}:${port}`))
}

/**
 * Whether a path names something the server keeps to itself. Checked on the decoded path, and
 * again by Vite's own fs.deny for its /@fs/ addresses (vite-setup.ts).
 */
export function isPrivate(pathname: string, root: string, dataDir: string): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return true
  }
  if (/[\\\0]/.test(decoded)) return true
  const parts = decoded.split('/').filter(Boolean)
  // Vite's dependency cache and the pictures the content plugin made are the only hidden
  // folders it serves.
  const hidden = (part: string, index: number) =>
    part.startsWith('.') &&
    !(parts[index - 1] === 'node_modules' && (part === '.vite' || part === '.cache'))
  if (parts.some(hidden)) return true
  if (PRIVATE_FOLDERS.includes(parts[0] ?? '')) return true
  const file = parts[0] === '@fs' ? resolve('/', ...parts.slice(1)) : resolve(root, ...parts)
  const inside = (folder: string) => !relative(folder, file).startsWith('..')
  return inside(dataDir) || PRIVATE_FOLDERS.some((folder) => inside(resolve(root, folder)))
}
