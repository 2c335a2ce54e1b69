// `node testing/server-tests-on-lts.mjs`: the Node test projects (`vitest --project server
// --project processes`: the production server, its processes, nginx and the static hosts) on
// the Node LTS release pinned in testing/node-lts/package.json, the line we recommend for
// production. npm test runs it beside the same tests on the machine's own Node.
//
// The binary is the npm registry's `node` package, installed on first use into
// testing/node-lts/node_modules (a package of its own: in the project's dependencies its `node`
// would shadow the machine's for every npm script). Child processes the tests start by name
// (`npm start`, `node …`) find it first on PATH.
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ltsDir = fileURLToPath(new URL('node-lts/', import.meta.url))
const pinned = JSON.parse(readFileSync(join(ltsDir, 'package.json'), 'utf8')).dependencies.node
const binary = join(ltsDir, 'node_modules', 'node', 'bin', 'node')

function versionOf(executable) {
  try {
    return execFileSync(executable, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

if (versionOf(binary) !== `v${pinned}`) {
  console.log(`Installing Node.js ${pinned} from the npm registry into testing/node-lts/`)
  execFileSync('npm', ['ci', '--prefix', ltsDir, '--no-audit', '--no-fund'], { stdio: 'inherit' })
}
const lts = versionOf(binary)
if (lts !== `v${pinned}`) {
  console.error(`testing/node-lts/ should hold Node.js ${pinned}, but its node says ${lts}`)
  process.exit(1)
}

const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
)
console.log(`node --version: ${lts} (the LTS line; this machine's own node is ${process.version})`)
const child = spawn(binary, [vitest, 'run', '--project', 'server', '--project', 'processes'], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(binary)}:${process.env.PATH ?? ''}` },
})
child.on('close', (code, signal) => process.exit(signal ? 1 : (code ?? 1)))
