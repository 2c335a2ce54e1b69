// `node benches/run.mjs NAME`: runs benches/NAME.mjs or benches/NAME.ts, first installing the
// benches' own dependencies (benches/package.json) when they are missing or older than their
// lock. Every bench is loaded through Vite's module runner, as the build's last step is: they
// start the site through the TypeScript of testing/site.ts.
import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { runnerImport } from 'vite'

const here = import.meta.dirname
const name = process.argv[2] ?? ''
const source = ['.mjs', '.ts'].map((ending) => join(here, `${name}${ending}`)).find(existsSync)
if (source === undefined || name === 'run') {
  console.error(`No bench named '${name}': see the bench scripts in package.json.`)
  process.exit(2)
}

const installed = join(here, 'node_modules/.package-lock.json')
const lock = join(here, 'package-lock.json')
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing the benches’ own dependencies (benches/package.json)…')
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' })
}

process.argv.splice(2, 1) // the bench reads its own options from argv[2] on
// The runner would set NODE_ENV to development when it is unset, and the bench runs inside it:
// what the bench measures runs as in production.
process.env.NODE_ENV ??= 'production'
await runnerImport(source, { configFile: false, logLevel: 'warn' })
