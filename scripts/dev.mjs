// npm run dev: the two pages rendered on each request by the same renderer as the prerender
// (src/prerender.tsx, through Vite's ssrLoadModule), the islands hydrating against Vite's dev
// modules with hot replacement, and the intake, store and delivery worker of `npm start`
// (server/lead-service.ts) so the form sends. Its variables, read through one schema
// (scripts/dev-settings.ts):
//   PORT (5173; 0 picks a free port), HOST (127.0.0.1), DATA_DIR (.data, as the server takes it):
//   where the requests are stored, in SQLite, as `npm start` stores them (`npm run outbox` lists
//   them). The server's delivery variables (docs/production.md) deliver them, as in production.
//   CMS_PROXY_PORT (8081; 0 picks a free port): with `npm run cms` (editor/start.mjs, which adds
//   the content editor), the editor proxy's port, on 127.0.0.1 always.
//
// A request that arrives while it starts waits, and is answered once it is ready. It answers
// only requests addressed to this machine (a Host of 127.0.0.1, localhost or HOST, on its port):
// a page reached by DNS rebinding gets nothing. It never serves the stored requests, the builds
// or the repository's hidden folders.
//
// The server itself is TypeScript (scripts/dev-server/, one job a module), loaded through Vite's
// runnerImport as the settings are; this file is the command's entry, and `npm run cms` runs it
// with the editor's extension (editor/dev-extension.ts).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

const root = resolve(import.meta.dirname, '..')

/** A TypeScript module of this repository, loaded as Vite runs it. */
export async function loadTypeScript(file) {
  return (await runnerImport(resolve(root, file), { configFile: false, logLevel: 'warn' })).module
}

/** Reads the settings (a wrong one: one line, exit 1) and starts the server. */
export async function runDevServer(extensionFor = () => null) {
  const { readDevSettings } = await loadTypeScript('scripts/dev-settings.ts')
  let settings
  try {
    settings = readDevSettings(process.env, root)
  } catch (error) {
    if (error.name !== 'SettingError') throw error
    console.error(error.message)
    process.exit(1)
  }
  const { startDevServer } = await loadTypeScript('scripts/dev-server/start.ts')
  await startDevServer(root, settings, await extensionFor(settings))
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runDevServer()
}
