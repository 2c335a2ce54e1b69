// npm run outbox: runs the compiled outbox CLI (build/server/cli/outbox.js). It needs no dev
// dependencies, so it works on a production install (npm ci --omit=dev) after a build. With no
// server build yet (a fresh clone where only `npm run dev` ran), it compiles the server first,
// as `npm start` builds what it needs: only the server, as the CLI needs no site. What tsc says
// goes to stderr, so that `--json` and `--xlsx` keep stdout to themselves.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { typescriptCompiler } from '../pipeline/typescript.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const cli = new URL('../build/server/cli/outbox.js', import.meta.url)

if (!existsSync(cli)) {
  const tsc = typescriptCompiler()
  if (tsc === null) {
    console.error('outbox: there is no server build yet; run `npm run build` first.')
    process.exit(1)
  }
  console.error('outbox: no server build yet: compiling the server (tsconfig.server.json) first…')
  // Into build/, as `npm run build` compiles it: build/server/ and the src/ modules it imports.
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  })
}
const { main } = await import(cli.href)
process.exitCode = await main(process.argv.slice(2))
