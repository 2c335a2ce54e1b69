// npm start: serve the production build, building it first only when there is none.
// package.json runs it with `exec`, so node replaces npm's shell: the SIGTERM or SIGINT that
// npm forwards (from a supervisor signalling npm's PID) reaches the server's graceful shutdown
// instead of orphaning it.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { staleReason } from '../pipeline/build-stamp.mjs'

const root = resolve(import.meta.dirname, '..')
const serverMain = join(root, 'build/server/main.js')

// docs/developing.md, 'Supported Node.js versions': Node 20 still runs the server, but gets no security
// fixes since its end of life, so production is told which line to run instead.
const nodeMajor = Number(process.versions.node.split('.')[0])
if (nodeMajor < 22) {
  console.warn(
    `WARNING: Node.js ${process.version} reached its end of life on 2026-04-30 and gets no ` +
      'security fixes. Run production on Node.js 24 LTS (docs/developing.md, Supported Node.js versions).',
  )
}

/** DIST_DIR as the server will read it (server/settings/config.ts), once there is a server to ask. */
async function distDir() {
  if (!existsSync(serverMain)) return join(root, 'dist')
  const { readDistDir } = await import('../build/server/settings/config.js')
  try {
    return readDistDir(process.env, root)
  } catch {
    return null // a wrong value: the server's start below says so in one line
  }
}

const served = await distDir()
if (served !== null && (!existsSync(join(served, 'index.html')) || !existsSync(serverMain))) {
  console.log('No production build yet: running npm run build first.')
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
} else if (served !== null) {
  // Settings are not compared: a build made with its own VITE_* settings is served as built.
  const stale = staleReason(relative(process.cwd(), served) || '.', { compareSettings: false })
  if (stale) console.warn(`WARNING: ${stale}. Serving it as it is; npm run build to update it.`)
}
await import('../build/server/main.js')
