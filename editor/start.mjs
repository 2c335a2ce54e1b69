// npm run cms: the content editor (Decap CMS) beside the site, both on this machine only.
// The development server (scripts/dev.mjs) runs with the editor's extension
// (editor/dev-extension.ts): it serves the editor at /admin/, and Decap's local proxy listens on
// http://127.0.0.1:$CMS_PROXY_PORT/api/v1 beside it, answering the editor's page only: it reads
// and writes content/ in this working tree with no login (editor/proxy.mjs). Every published
// change shows in the page without a restart (content/LEEME.md). One process: Ctrl-C or a
// SIGTERM stops all of it; a busy port is one line and exit 1.
//   PORT (5173) for the site and its editor, CMS_PROXY_PORT (8081) for the proxy; both on
//   127.0.0.1, whatever HOST says: the editor writes files, it is for this machine only.
import { resolve } from 'node:path'
import { loadTypeScript, runDevServer } from '../scripts/dev.mjs'

process.env.HOST = '127.0.0.1'
const root = resolve(import.meta.dirname, '..')
const { editorExtension } = await loadTypeScript('editor/dev-extension.ts')
await runDevServer((settings) => editorExtension(root, settings.proxyPort))
