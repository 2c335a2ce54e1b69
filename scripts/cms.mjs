// npm run cms: the content editor (Decap CMS) beside the site, both on this machine only.
// Starts Decap's local proxy, which reads and writes content/ in this working tree with no
// login, and the development server, which serves the editor at /admin/ and shows every
// published change in the page without a restart (content/LEEME.md).
//   PORT (5173) for the site and its editor, CMS_PROXY_PORT (8081) for the proxy.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const host = '127.0.0.1'
const proxyPort = process.env.CMS_PROXY_PORT || '8081'
const children = []

function start(script, env, onOutput) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk)
    onOutput?.(chunk.toString())
  })
  child.once('exit', (code) => {
    console.error(`${script} stopped (${code ?? 'signal'}); stopping the editor.`)
    stop(code ?? 1)
  })
  return child
}

function stop(code = 0) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  process.exitCode = code
}

start(createRequire(import.meta.url).resolve('decap-server'), {
  PORT: proxyPort,
  BIND_HOST: host,
  MODE: 'fs',
  GIT_REPO_DIRECTORY: root,
  LOG_LEVEL: 'warn',
})
let announced = false
start(
  resolve(root, 'scripts/dev.mjs'),
  { HOST: host, DECAP_PROXY_URL: `http://${host}:${proxyPort}/api/v1` },
  (text) => {
    const listening = /Development server on (http:\/\/[^/\s]+)\//.exec(text)
    if (!listening || announced) return
    announced = true
    console.log(`\nEditor de contenido: ${listening[1]}/admin/  (la página: ${listening[1]}/)\n`)
  },
)
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
