// A folder with dependencies of its own (its package.json and package-lock.json), installed
// into its own node_modules the first time something needs them: the content editor (editor/),
// the test tools (testing/tools/) and the benchmarks (benches/). `npm ci` at the top of the
// project never carries them; `npm ci --prefix <folder>` runs again whenever the folder's lock
// differs from the one it was installed from. Processes that need the same folder at once (two
// test lanes, two test workers) install it once: the others wait for the first.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

/** Written after an install: the hash of the lock it was made from. */
const STAMP = join('node_modules', '.installed-from')

const sha256 = (data) => createHash('sha256').update(data).digest('hex')

function installedFrom(folder) {
  try {
    return readFileSync(join(folder, STAMP), 'utf8')
  } catch {
    return null
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** Runs `work` holding the folder's install lock: a file in the temp folder naming its holder. */
function holdingLock(folder, work) {
  const lock = join(tmpdir(), `gaspre-install-${sha256(folder).slice(0, 16)}.lock`)
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      // A holder that died mid-install (Ctrl-C) leaves its lock behind: taken over.
      const holder = Number(readFileSync(lock, { encoding: 'utf8', flag: 'r' }) || 'NaN')
      if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { force: true })
      else pause(500)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { force: true })
  }
}

/**
 * Installs `folder`'s own dependencies unless they are installed from its current lock. What
 * npm prints goes to stderr, so a command's own output stays as it was. Synchronous: a module
 * can call it before it resolves a package there.
 */
export function installOnFirstUse(folder) {
  const real = realpathSync(folder)
  const lock = sha256(readFileSync(join(real, 'package-lock.json')))
  if (installedFrom(real) === lock) return
  holdingLock(real, () => {
    if (installedFrom(real) === lock) return
    const name = relative(process.cwd(), real) || '.'
    process.stderr.write(`Installing the dependencies of ${name}/ (its package.json), once…\n`)
    execFileSync('npm', ['ci', '--prefix', real, '--no-audit', '--no-fund'], {
      stdio: ['ignore', 2, 2],
    })
    writeFileSync(join(real, STAMP), lock)
  })
}
