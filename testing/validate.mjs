// npm test: every check the project has. A stage is a set of lanes that run side by side, one
// per core (the machine has two): the checks of the sources beside the build. A lane runs its
// steps in order and stops at a failure; a stage starts only when every lane before it passed.
// To add a check, add a step to the lane whose results it needs.
import { spawn } from 'node:child_process'

const stages = [
  {
    sources: [
      { name: 'format', command: ['npx', 'prettier', '--check', '.'] },
      { name: 'lint', command: ['npx', 'eslint', '--max-warnings=0', '.'] },
      { name: 'typecheck', command: ['npm', 'run', 'typecheck', '--silent'] },
      // The product's own files, exports and dependencies, each used (knip.json: entry points).
      { name: 'unused code', command: ['npx', 'knip', '--production'] },
      {
        name: `unit and server tests on Node ${process.version}`,
        command: ['npx', 'vitest', 'run'],
      },
    ],
    build: [
      { name: 'build', command: ['npm', 'run', 'build', '--silent'] },
      { name: 'html validity', command: ['node', 'testing/check-html.mjs'] },
      // The server tests again, on the Node LTS line (the machine's own may be older). They
      // make their own build of the site, so they can run here, beside the sources lane.
      {
        name: 'server tests on the Node LTS line',
        command: ['node', 'testing/server-tests-on-lts.mjs'],
      },
    ],
  },
  {
    browsers: [
      { name: 'end-to-end tests', command: ['npx', 'playwright', 'test'] },
      {
        name: 'journeys in Chromium, Firefox and WebKit',
        command: ['npx', 'vitest', 'run', '-c', 'vitest.engines.config.ts'],
      },
    ],
  },
]

/**
 * Runs one step. Beside other steps its output is held back and printed whole when it ends, so
 * outputs never interleave; alone, it streams.
 */
function run({ name, command: [command, ...args] }, alone) {
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
      process.stdout.write(Buffer.concat(output))
      resolve({ name, ok, seconds })
    })
  })
}

async function runLane(steps, alone) {
  const results = []
  for (const step of steps) {
    results.push(await run(step, alone))
    if (!results.at(-1).ok) break
  }
  return results
}

const began = Date.now()
const results = []
for (const stage of stages) {
  const lanes = Object.values(stage)
  results.push(
    ...(await Promise.all(lanes.map((steps) => runLane(steps, lanes.length === 1)))).flat(),
  )
  if (results.some((result) => !result.ok)) break
}

console.log('\nSummary')
for (const { name, ok, seconds } of results)
  console.log(`  ${ok ? '✓' : '✗'} ${name} (${seconds} s)`)
const failed = results.filter((result) => !result.ok).length
const skipped = stages.flatMap((stage) => Object.values(stage).flat()).length - results.length
console.log(`  total ${Math.round((Date.now() - began) / 1000)} s`)
console.log(
  `validate: ${results.length - failed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
)
process.exit(failed === 0 ? 0 : 1)
