// npm run outbox: runs the compiled outbox CLI (build/server/cli/outbox.js). It needs no dev
// dependencies, so it works on a production install (npm ci --omit=dev) after a build.
import { existsSync } from 'node:fs'

const cli = new URL('../build/server/cli/outbox.js', import.meta.url)
if (!existsSync(cli)) {
  console.error('outbox: there is no server build yet; run `npm run build` first.')
  process.exit(1)
}
const { main } = await import(cli.href)
process.exitCode = await main(process.argv.slice(2))
