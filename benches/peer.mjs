// The conventional SPA peer (../shared/peers/conventional-spa beside the repository, or PEER_DIR),
// the same page built the usual way, which the benches measure beside ours in the same run. It
// is copied to $TMPDIR/gaspre-peer/, installed and built there once (never inside the shared
// folder), and served from its dist/ by its own `serve`.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startSite } from '../testing/site.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Beside the repository, as the team's checkouts are laid out (PEER_DIR for any other place). */
export const PEER_DIR = resolve(root, process.env.PEER_DIR ?? '../shared/peers/conventional-spa')

/** Whether there is a peer to measure: a checkout without the shared folder has none. */
export const peerExists = () => existsSync(PEER_DIR)

/**
 * The peer, built once in a copy under the temporary folder, served by its own `serve`.
 * @param {{ rebuild?: boolean }} options rebuild: start the copy over
 */
export async function startPeer({ rebuild = false } = {}) {
  const copy = join(tmpdir(), 'gaspre-peer', basename(PEER_DIR))
  if (rebuild) rmSync(copy, { recursive: true, force: true })
  if (!existsSync(join(copy, 'dist/index.html'))) {
    console.log(`Building the peer in ${copy} (npm ci && npm run build)…`)
    rmSync(copy, { recursive: true, force: true })
    cpSync(PEER_DIR, copy, {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|dist)$/.test(source),
    })
    // The benches run with NODE_ENV=production (run.mjs), under which npm ci would leave out the
    // dev dependencies the peer is built with.
    const peerEnv = { ...process.env }
    delete peerEnv.NODE_ENV
    const inPeer = { cwd: copy, stdio: /** @type {const} */ ('inherit'), env: peerEnv }
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], inPeer)
    execFileSync('npm', ['run', 'build'], inPeer)
  }
  return startSite({
    host: 'own-server',
    command: join(copy, 'node_modules/.bin/serve'),
    args: (port) => [
      ...['-s', 'dist', '-l', `tcp://127.0.0.1:${port}`],
      ...['--no-clipboard', '--no-port-switching'],
    ],
    cwd: copy,
    env: { NO_UPDATE_CHECK: '1' },
    readyPath: '/',
  })
}
