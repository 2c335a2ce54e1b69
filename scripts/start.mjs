// npm start: serve the production build, building it first only when there is none.
// package.json runs it with `exec`, so node replaces npm's shell: the SIGTERM or SIGINT that
// npm forwards (from a supervisor signalling npm's PID) reaches the server's graceful shutdown
// instead of orphaning it.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { staleReason } from './build-stamp.mjs'

const distDir = process.env.DIST_DIR ?? 'dist'
if (!existsSync(join(distDir, 'index.html')) || !existsSync('build/server/main.js')) {
  console.log('No production build yet: running npm run build first.')
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
} else {
  // Settings are not compared: a build made with its own VITE_* settings is served as built.
  const stale = staleReason(distDir, { compareSettings: false })
  if (stale) console.warn(`WARNING: ${stale}. Serving it as it is; npm run build to update it.`)
}
await import('../build/server/main.js')
