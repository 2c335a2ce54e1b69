// npm test: every check the project has, in the order a failure is cheapest to find.
import { spawnSync } from 'node:child_process'

const steps = [
  ['format', ['npx', 'prettier', '--check', '.']],
  ['lint', ['npx', 'eslint', '--max-warnings=0', '.']],
  ['typecheck', ['npm', 'run', 'typecheck', '--silent']],
  ['unit and server tests', ['npx', 'vitest', 'run']],
  ['build', ['npm', 'run', 'build', '--silent']],
  ['html validity', ['node', 'scripts/check-html.mjs']],
  ['end-to-end tests', ['npx', 'playwright', 'test']],
]

const results = []
for (const [name, [command, ...args]] of steps) {
  console.log(`\n▶ ${name}: ${[command, ...args].join(' ')}`)
  const started = Date.now()
  const { status } = spawnSync(command, args, { stdio: 'inherit' })
  results.push({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) })
  if (status !== 0) break
}

console.log('\nSummary')
for (const { name, ok, seconds } of results)
  console.log(`  ${ok ? '✓' : '✗'} ${name} (${seconds} s)`)
const failed = results.filter((result) => !result.ok).length
const skipped = steps.length - results.length
console.log(
  `validate: ${results.length - failed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
)
process.exit(failed === 0 ? 0 : 1)
