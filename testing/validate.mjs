// npm test: every check the project has. A stage is a set of lanes that run side by side, about
// one per core (the machine has two): the checks of the sources beside the build. A lane runs its
// steps in order and stops at a failure; a step that `needs` a step of another lane waits for it
// to pass. A stage starts only when every lane before it passed. To add a check, add a step to
// the lane whose results it needs.
//
// npm run check (`--check`): the quick loop, about a minute: the same format, lint and type
// checks, with caches, beside the tests that run in the test process (vitest's projects but
// 'processes', which starts programs and builds, and is left to npm test).
import { spawn } from 'node:child_process'

// Caches live in node_modules/.cache/, so a fresh npm ci starts them again.
const cached = '--cache-location node_modules/.cache/gaspre/eslint'
// TypeScript 7 by its path: two packages install a bin named tsc (pipeline/typescript.mjs).
const tsc = (config, info) =>
  `node node_modules/typescript-native/bin/tsc -p ${config} --noEmit --incremental --tsBuildInfoFile node_modules/.cache/gaspre/${info}`

const check = [
  {
    sources: [
      { name: 'format', command: 'npx prettier --check --cache .' },
      { name: 'lint', command: `npx eslint --max-warnings=0 --cache ${cached} .` },
      { name: 'typecheck', command: tsc('tsconfig.json', 'web.tsbuildinfo') },
      { name: 'typecheck (server)', command: tsc('tsconfig.server.json', 'server.tsbuildinfo') },
    ],
    tests: [
      {
        name: 'unit tests in the test process',
        command: 'npx vitest run --project web --project web-mocks --project server',
      },
    ],
  },
]

// npm test on two cores: the build lane builds, then runs the end-to-end tests; the sources lane
// checks the sources, runs the page's unit tests, the server's tests on the Node LTS line, then
// the journeys on the build lane's dist/; the lines lane, mostly waiting, prepares the LTS line,
// runs the server's processes on the machine's own, then looks for unused code and checks the
// built HTML. The sources and build lanes take about as long as each other; a new step goes
// where it keeps them so.
const all = [
  {
    sources: [
      { name: 'format', command: ['npx', 'prettier', '--check', '.'] },
      { name: 'lint', command: ['npx', 'eslint', '--max-warnings=0', '.'] },
      { name: 'typecheck', command: ['npm', 'run', 'typecheck', '--silent'] },
      // The page's unit tests. The server's run whole on the LTS line below, the one production
      // runs; on this machine's own line only those where the line matters (node-line).
      {
        name: `unit tests on Node ${process.version}`,
        command: ['npx', 'vitest', 'run', '--project', 'web', '--project', 'web-mocks'],
      },
      // The server tests on the Node LTS line, the one production runs. They compile a server
      // of their own, so they need no build; the line itself is prepared from the start.
      {
        name: 'server tests on the Node LTS line',
        command: ['node', 'testing/server-tests-on-lts.mjs'],
        needs: 'the Node LTS line installed',
      },
      // The journeys serve the build lane's dist/, made in its first seconds; here they keep
      // the two lanes about as long as each other (the end-to-end tests alone fill that lane).
      // Run alone, their global setup builds what is missing or stale.
      {
        name: 'journeys in Chromium, Firefox and WebKit',
        command: ['npx', 'vitest', 'run', '-c', 'vitest.engines.config.ts'],
      },
    ],
    // The Node lines: Node 24 from the registry and its SQLite addon compiled (over a minute on
    // a fresh clone, most of it waiting on the download and one core), then the server's
    // processes on the machine's own line where the line matters (vitest.config.ts:
    // NODE_LINE_TESTS; every one of them runs on the LTS line too). Both mostly wait, so they
    // run beside the first steps of the other lanes, which keep the cores busy; the two short
    // checks after them would otherwise lengthen those lanes.
    lines: [
      {
        name: 'the Node LTS line installed',
        command: ['node', 'testing/server-tests-on-lts.mjs', '--prepare'],
      },
      {
        name: `server processes on Node ${process.version}`,
        command: ['npx', 'vitest', 'run', '--project', 'node-line'],
      },
      // The product's own files, exports and dependencies, each used (knip.json: entry points).
      { name: 'unused code', command: ['npx', 'knip', '--production'] },
      { name: 'html validity', command: ['node', 'testing/check-html.mjs'], needs: 'build' },
    ],
    build: [
      { name: 'build', command: ['npm', 'run', 'build', '--silent'] },
      { name: 'end-to-end tests', command: ['npx', 'playwright', 'test'] },
    ],
  },
]

/**
 * Runs one step (its command as words, or a line without quotes split at spaces). Beside other
 * steps its output is held back and printed whole when it ends, so outputs never interleave;
 * alone, it streams.
 */
function run({ name, command: line }, alone) {
  const [command, ...args] = typeof line === 'string' ? line.split(' ') : line
  const started = Date.now()
  console.log(`▶ ${name}: ${[command, ...args].join(' ')}`)
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', alone ? 'inherit' : 'pipe', alone ? 'inherit' : 'pipe'],
    })
    const output = []
    child.stdout?.on('data', (chunk) => output.push(chunk))
    child.stderr?.on('data', (chunk) => output.push(chunk))
    child.on('close', (status) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      const ok = status === 0
      console.log(`\n${ok ? '✓' : '✗'} ${name} (${seconds} s)`)
      const printed = Buffer.concat(output)
      process.stdout.write(printed)
      resolve({ name, ok, seconds, printed: alone || ok ? null : printed.toString() })
    })
  })
}

/** Each step's end, by name: a step that `needs` another (in another lane) waits for it. */
const ended = new Map()
const endOf = (name) => {
  if (!ended.has(name)) {
    let end
    ended.set(name, Object.assign(new Promise((resolve) => (end = resolve)), { end }))
  }
  return ended.get(name)
}

/** Runs a lane's steps in order, up to the first failure; returns them with the lane's time. */
async function runLane(name, steps, alone) {
  const started = Date.now()
  const results = []
  for (const step of steps) {
    const ready = step.needs ? await endOf(step.needs) : true
    const notRun = `${step.name}: not run, as ${step.needs} failed`
    results.push(
      ready ? await run(step, alone) : { name: step.name, ok: false, seconds: 0, printed: notRun },
    )
    endOf(step.name).end(results.at(-1).ok)
    if (!results.at(-1).ok) break
  }
  for (const step of steps.slice(results.length)) endOf(step.name).end(false)
  return { name, results, seconds: Math.round((Date.now() - started) / 1000) }
}

const stages = process.argv.includes('--check') ? check : all
const began = Date.now()
const lanes = []
for (const stage of stages) {
  const entries = Object.entries(stage)
  lanes.push(
    ...(await Promise.all(
      entries.map(([name, steps]) => runLane(name, steps, entries.length === 1)),
    )),
  )
  if (lanes.some((lane) => lane.results.some((result) => !result.ok))) break
}

// A failed step's end is printed again last: beside the other lane its output is followed by
// minutes of that lane's, and a CI log read from its tail would otherwise miss what failed.
const lastLines = 120
for (const { name, printed } of lanes.flatMap((lane) => lane.results)) {
  if (!printed) continue
  console.log(`\n✗ ${name}, the last ${lastLines} lines of its output again:`)
  console.log(printed.trimEnd().split('\n').slice(-lastLines).join('\n'))
}

console.log('\nSummary')
for (const lane of lanes) {
  console.log(`  ${lane.name} lane (${lane.seconds} s)`)
  for (const { name, ok, seconds } of lane.results)
    console.log(`    ${ok ? '✓' : '✗'} ${name} (${seconds} s)`)
}
const results = lanes.flatMap((lane) => lane.results)
const failed = results.filter((result) => !result.ok).length
const skipped = stages.flatMap((stage) => Object.values(stage).flat()).length - results.length
console.log(`  total ${Math.round((Date.now() - began) / 1000)} s`)
console.log(
  `validate: ${results.length - failed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
)
process.exit(failed === 0 ? 0 : 1)
