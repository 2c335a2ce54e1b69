// `node benches/run.mjs NAME`: runs benches/NAME.mjs or benches/NAME.ts, first installing the
// benches' own dependencies (benches/package.json) when they are missing or were installed from
// another lock (scripts/install-on-first-use.mjs). Every bench is loaded through Vite's module
// runner, as the build's last step is: they start the site through the TypeScript of
// testing/site.ts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runnerImport } from 'vite'
import { installOnFirstUse } from '../scripts/install-on-first-use.mjs'

const here = import.meta.dirname
const name = process.argv[2] ?? ''
const source = ['.mjs', '.ts'].map((ending) => join(here, `${name}${ending}`)).find(existsSync)
if (source === undefined || name === 'run') {
  console.error(`No bench named '${name}': see the bench scripts in package.json.`)
  process.exit(2)
}

installOnFirstUse(here)

process.argv.splice(2, 1) // the bench reads its own options from argv[2] on
// The runner would set NODE_ENV to development when it is unset, and the bench runs inside it:
// what the bench measures runs as in production.
process.env.NODE_ENV ??= 'production'
await runnerImport(source, { configFile: false, logLevel: 'warn' })
