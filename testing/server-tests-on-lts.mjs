// `node testing/server-tests-on-lts.mjs`: the Node test projects (`vitest --project server
// --project processes`: the production server, its processes, nginx and the static hosts) on
// the Node LTS release pinned in testing/node-lts/package.json, the line we recommend for
// production. npm test runs it beside the same tests on the machine's own Node.
//
// The binary is the npm registry's `node` package, installed on first use into
// testing/node-lts/node_modules (a package of its own: in the project's dependencies its `node`
// would shadow the machine's for every npm script). Child processes the tests start by name
// (`npm start`, `node …`) find it first on PATH.
//
// `--prepare` installs the binary and builds the addon (below), then exits: npm test runs that
// from its first second beside the other steps, as the preparation is mostly waiting on the
// registry and one C compiler's core.
import { execFileSync, spawn } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
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

// better-sqlite3's addon, which npm ci compiled for this machine's Node, does not load on another
// line (another ABI): the LTS line gets one of its own, built once against the headers its npm
// package ships, where the store looks for one per ABI (server/store/sqlite-connections.ts).
const abi = execFileSync(binary, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim()
const sqliteRoot = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'))
const tag = `node-v${abi}-${process.platform}-${process.arch}`
const addon = join(sqliteRoot, 'lib', 'binding', tag, 'better_sqlite3.node')
if (!existsSync(addon)) {
  console.log(`Building better-sqlite3 for Node.js ${pinned} (${tag}), once`)
  const work = mkdtempSync(join(tmpdir(), 'gaspre-sqlite-lts-'))
  try {
    cpSync(sqliteRoot, work, {
      recursive: true,
      filter: (source) => !source.startsWith(join(sqliteRoot, 'build')),
    })
    const nodeGyp = join(
      execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(),
      'npm/node_modules/node-gyp/bin/node-gyp.js',
    )
    const headers = join(
      ltsDir,
      'node_modules/node/node_modules',
      `node-${process.platform}-${process.arch}`,
    )
    const env = { ...process.env }
    delete env.npm_config_nodedir // npm's own setting points at this machine's Node
    // Unoptimised: SQLite's one C file takes 6 s to compile so, against well over a minute at
    // the -O3 its build asks for, and the tests' few rows never feel the difference. Flags from
    // the environment come last on gyp's command lines, so these win (decision 028).
    env.CFLAGS = '-O0'
    env.CXXFLAGS = '-O0'
    execFileSync(binary, [nodeGyp, 'rebuild', '--release', `--nodedir=${headers}`], {
      cwd: work,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    mkdirSync(dirname(addon), { recursive: true })
    copyFileSync(join(work, 'build/Release/better_sqlite3.node'), addon)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (process.argv.includes('--prepare')) {
  console.log(`Node.js ${lts} and its better-sqlite3 addon are ready`)
  process.exit(0)
}

const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
)
console.log(`node --version: ${lts} (the LTS line; this machine's own node is ${process.version})`)
// The 'server' project's files one at a time (fileParallelism: false) would make a group of their
// own, which vitest runs after the processes, on one worker: a minute of tail on a loaded machine.
// With file parallelism and the processes' workers (vitest.config.ts) for both projects, they
// are one group, and the quick files fill the gaps the slow ones leave.
const args = ['run', '--project', 'server', '--project', 'processes']
const child = spawn(binary, [vitest, ...args, '--fileParallelism', '--maxWorkers=3'], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(binary)}:${process.env.PATH ?? ''}` },
})
child.on('close', (code, signal) => process.exit(signal ? 1 : (code ?? 1)))
