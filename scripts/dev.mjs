// npm run dev: the two pages rendered on each request by the same renderer as the prerender
// (src/prerender.tsx, through Vite's ssrLoadModule), the islands hydrating against Vite's dev
// modules with hot replacement, and the intake, store and delivery worker of `npm start`
// (server/lead-service.ts) so the form sends. Its variables, read through one schema
// (scripts/dev-settings.ts):
//   PORT (5173; 0 picks a free port), HOST (127.0.0.1), DATA_DIR (.data, as the server takes it):
//   where the requests are stored, in SQLite, as `npm start` stores them (`npm run outbox` lists
//   them). The server's delivery variables (docs/production.md) deliver them, as in production.
//   CMS_LOCAL (unset): set by `npm run cms`, serves the content editor at /admin/ and starts its
//   local proxy (editor/proxy.mjs), which reads and writes content/ in this working tree.
//   CMS_PROXY_PORT (8081; 0 picks a free port): the proxy's port, on 127.0.0.1 always; it
//   answers the editor's page only (http://$HOST:$PORT/admin/).
//
// A request that arrives while it starts waits, and is answered once it is ready.
// It answers only requests addressed to this machine (a Host of 127.0.0.1, localhost or HOST, on
// its port): a page reached by DNS rebinding gets nothing. It never serves the stand-in's data,
// the builds or the repository's hidden folders.
import { readFile } from 'node:fs/promises'
import { createServer as createHttpServer } from 'node:http'
import { relative, resolve } from 'node:path'
import Fastify from 'fastify'
import { createServer as createViteServer, runnerImport } from 'vite'

const root = resolve(import.meta.dirname, '..')
const { readDevSettings } = (
  await runnerImport(resolve(root, 'scripts/dev-settings.ts'), {
    configFile: false,
    logLevel: 'warn',
  })
).module
const settings = (() => {
  try {
    return readDevSettings(process.env, root)
  } catch (error) {
    if (error.name !== 'SettingError') throw error
    console.error(error.message)
    process.exit(1)
  }
})()
const { port, host, dataDir, editorEnabled, proxyPort } = settings
const RENDERER = '/src/prerender.tsx'
/** The proxy listens on the loopback address only, whatever HOST says. */
const PROXY_HOST = '127.0.0.1'
/** What the server never serves, at the top of the repository: the builds, and the data. */
const PRIVATE_FOLDERS = [
  'dist',
  'build',
  'bench-results',
  'engines-results',
  'test-results',
  'playwright-report',
]

/**
 * A change to a module the server renders outside the islands (a static section, the page
 * layout, copy they show) cannot be hot-swapped: the browser has no module to replace, so the
 * page reloads and is rendered again. Island components and their CSS keep React's hot refresh,
 * plain CSS Vite's hot swap.
 */
function reloadServerRenderedChanges() {
  return {
    name: 'gaspre:reload-server-rendered-changes',
    hotUpdate({ file, server }) {
      if (this.environment.name !== 'client') return
      const ssrModules = server.environments.ssr.moduleGraph.getModulesByFile(file)
      if (!ssrModules?.size || (file.endsWith('.css') && !file.endsWith('.module.css'))) return
      const client = server.environments.client.moduleGraph
      const seen = new Set()
      const pending = [...ssrModules]
      while (pending.length > 0) {
        const module = pending.pop()
        if (seen.has(module) || module.url === RENDERER) continue
        seen.add(module)
        if (!module.file || !client.getModulesByFile(module.file)?.size) {
          this.environment.hot.send({ type: 'full-reload' })
          return []
        }
        pending.push(...module.importers)
      }
    },
  }
}

/**
 * The production policy of this configuration, with inline code allowed: Vite injects styles
 * and the React refresh preamble inline and changes them on every edit, so no hash can cover
 * them. The hot-update socket runs on this server.
 */
async function developmentPolicy(vite, origin) {
  const { describeBuild } = await vite.ssrLoadModule(RENDERER)
  const { contentSecurityPolicy } = await vite.ssrLoadModule('/server/security-headers.ts')
  const build = { ...describeBuild(process.env, []), scriptHashes: [], styleHashes: [] }
  return contentSecurityPolicy(build)
    .replace(/(script-src|style-src) 'self'/g, "$1 'self' 'unsafe-inline'")
    .replace(/connect-src 'self'/, `connect-src 'self' ${origin.replace(/^http/, 'ws')}`)
}

/**
 * Every stylesheet the server render imported, inline and tagged with its module id, so the page
 * paints styled. Vite's client adopts these tags when an island imports the same module and swaps
 * their text on a change. Plain stylesheets are imported here so they are hot too; CSS modules of
 * static sections are not (they would end Vite's update search without a boundary): a change to
 * one reloads the page (reloadServerRenderedChanges).
 */
async function serverRenderedStyles(vite) {
  const styleIds = [...vite.environments.ssr.moduleGraph.idToModuleMap.keys()].filter((id) =>
    /\.css$/.test(id),
  )
  const tags = []
  for (const id of styleIds) {
    // Compiled on the server side: a client request for the text (?direct) would add a module
    // that no update can reach, and Vite would reload the page on every change to it.
    const { default: css } = await vite.ssrLoadModule(`/@fs${id}?inline`)
    tags.push(`<style data-vite-dev-id="${id}">${css}</style>`)
  }
  const imports = styleIds
    .filter((id) => !id.endsWith('.module.css'))
    .map((id) => `import ${JSON.stringify(`/@fs${id}`)}`)
    .join(';')
  return `${tags.join('\n')}\n<script type="module">${imports}</script>`
}

async function renderPage(vite, pathname) {
  const { renderPages } = await vite.ssrLoadModule(RENDERER)
  const page = renderPages(process.env).find(
    (candidate) => candidate.path === pathname || `${candidate.path}/` === pathname,
  )
  if (page === undefined) return null
  const template = await vite.transformIndexHtml(
    pathname,
    await readFile(resolve(root, page.template), 'utf8'),
  )
  const styles = await serverRenderedStyles(vite)
  return template
    .replace('<!--head-->', () => `${page.head}\n${styles}`)
    .replace('<!--app-->', () => page.html)
}

/**
 * The intake of `npm start` on its store and worker (server/lead-service.ts), configured as
 * `npm start` is, with this server's DATA_DIR. A DATA_DIR another server holds stops the start
 * with one line.
 */
async function leadIntake() {
  const { readConfig } = await vite.ssrLoadModule('/server/config.ts')
  const { openLeadService } = await vite.ssrLoadModule('/server/lead-service.ts')
  const { registerLeadIntake } = await vite.ssrLoadModule('/server/app.ts')
  const { isOperatorError } = await vite.ssrLoadModule('/server/start-server.ts')
  let leads
  try {
    const config = readConfig({ ...process.env, DATA_DIR: dataDir }, root)
    leads = await openLeadService(config, (error) => {
      console.error(`lost the lock on DATA_DIR (${error.message}): stopping`)
      process.exit(1)
    })
    const api = Fastify({ logger: { level: 'warn' } })
    registerLeadIntake(api, { ...leads.appOptions, store: leads.store, limits: config })
    await api.ready()
    await leads.begin(api.log)
    return { api, leads }
  } catch (error) {
    await leads?.stop()
    if (!isOperatorError(error)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

/** The Host values this server answers: this machine's names, on the port it listens on. */
function allowedHosts(port) {
  return new Set([host, '127.0.0.1', 'localhost'].map((name) => `${name}:${port}`))
}

/**
 * Whether a path names something the server keeps to itself: a hidden file or folder (.data,
 * .git, .env…), a build, or the stand-in's data wherever DATA_DIR puts it. Checked on the
 * decoded path, before Vite sees it, and again by Vite's own fs.deny for its /@fs/ addresses.
 */
function isPrivate(pathname) {
  let decoded
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return true
  }
  if (/[\\\0]/.test(decoded)) return true
  const parts = decoded.split('/').filter(Boolean)
  // Vite's dependency cache and the pictures the content plugin made are the only hidden
  // folders it serves.
  const hidden = (part, index) =>
    part.startsWith('.') &&
    !(parts[index - 1] === 'node_modules' && (part === '.vite' || part === '.cache'))
  if (parts.some(hidden)) return true
  if (PRIVATE_FOLDERS.includes(parts[0])) return true
  const file = parts[0] === '@fs' ? resolve('/', ...parts.slice(1)) : resolve(root, ...parts)
  const inside = (folder) => !relative(folder, file).startsWith('..')
  return inside(dataDir) || PRIVATE_FOLDERS.some((folder) => inside(resolve(root, folder)))
}

/** Listens, or says in one line that the port is taken (`busy`) and exits 1. */
function listen(server, port, host, busy) {
  return new Promise((resolveListening) => {
    server.once('error', (error) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error
      console.error(busy)
      process.exit(1)
    })
    server.listen(port, host, resolveListening)
  })
}

/**
 * Requests that arrive while the server starts: each waits for `ready` and is then handed to
 * the handler the server has by then, so none is left without an answer.
 */
function untilReady(server, ready) {
  server.on('request', (request, response) => {
    void ready.then(
      () => server.emit('ready-request', request, response),
      () => response.destroy(),
    )
  })
}

let markReady
let markFailed
const ready = new Promise((resolveReady, rejectReady) => {
  markReady = resolveReady
  markFailed = rejectReady
})
ready.catch(() => undefined)
process.once('exit', () => markFailed(new Error('stopped while starting')))

const httpServer = createHttpServer()
untilReady(httpServer, ready)
// Listening first: a busy port is told in one line, before anything else starts.
await listen(
  httpServer,
  port,
  host,
  editorEnabled
    ? `El puerto ${port} de ${host} está ocupado: cierra lo que lo usa o elige otro, por ejemplo PORT=${port + 1} npm run cms`
    : `Port ${port} on ${host} is in use: stop what uses it, or choose another with PORT=${port + 1}`,
)
// The editor's proxy: a listener of its own, in this process, so a SIGTERM stops it too.
const proxyServer = editorEnabled ? createHttpServer() : undefined
if (proxyServer) untilReady(proxyServer, ready)
if (proxyServer)
  await listen(
    proxyServer,
    proxyPort,
    PROXY_HOST,
    `El puerto ${proxyPort} de ${PROXY_HOST}, el del proxy del editor, está ocupado: cierra lo que lo usa o elige otro, por ejemplo CMS_PROXY_PORT=${proxyPort + 1} npm run cms`,
  )
const origin = `http://${host}:${httpServer.address().port}`
const hosts = allowedHosts(httpServer.address().port)
const proxyOrigin = proxyServer && `http://${PROXY_HOST}:${proxyServer.address().port}`
/**
 * The editor's modules and Decap's bundle, loaded only when the editor is on: npm run dev needs
 * nothing of it. Its own dependencies are installed on first use (editor/install.mjs).
 */
const cms = proxyServer && {
  ...(await import('../editor/proxy.mjs')),
  decapBundle: (await import('../editor/install.mjs')).decapRequire().resolve('decap-cms'),
}
if (proxyServer) {
  const proxy = await cms.editorProxy(root)
  const gate = { origin, host: new URL(proxyOrigin).host }
  proxyServer.on('ready-request', (request, response) =>
    proxy(request, response, gate).catch((error) => {
      console.error(error)
      if (!response.headersSent) response.writeHead(500, { vary: 'Origin' })
      response.end()
    }),
  )
}

const vite = await createViteServer({
  root,
  appType: 'custom',
  server: {
    middlewareMode: true,
    hmr: { server: httpServer },
    // The pages and modules are for this origin's pages only.
    cors: false,
    allowedHosts: [...hosts].map((value) => value.replace(/:\d+$/, '')),
    fs: {
      deny: [
        '.env',
        '.env.*',
        '*.{crt,pem}',
        '**/.git/**',
        '**/.data/**',
        `${dataDir}/**`,
        ...PRIVATE_FOLDERS.map((folder) => `${resolve(root, folder)}/**`),
      ],
    },
  },
  plugins: [reloadServerRenderedChanges()],
  // What the editor's modules use that no page of the site does (its checks, its preview):
  // optimized up front, not found on first load, which would make Vite reload the editor and
  // leave it without its modules.
  optimizeDeps: {
    include: editorEnabled ? ['yaml', 'markdown-it', 'zod', 'react-dom/server'] : [],
  },
})
const { api, leads } = await leadIntake()

/** The content editor's files (npm run cms): its page, its bundle and its config. */
async function contentEditor(request, pathname) {
  if (!editorEnabled || !pathname.startsWith('/admin')) return null
  // The proxy answers the editor's exact origin only: the editor is opened there.
  if (request.headers.host !== new URL(origin).host)
    return { status: 302, headers: { location: `${origin}/admin/` } }
  if (pathname === '/admin') return { status: 301, headers: { location: '/admin/' } }
  // Compiled by Vite like any module of the site.
  if (pathname === '/admin/formats.js')
    return { status: 302, headers: { location: '/editor/formats.ts' } }
  const file = {
    '/admin/': [resolve(root, 'editor/index.html'), 'text/html; charset=utf-8'],
    '/admin/decap-cms.js': [cms.decapBundle, 'text/javascript'],
    '/admin/manual-init.js': [resolve(root, 'editor/manual-init.js'), 'text/javascript'],
    '/admin/logo.svg': [resolve(root, 'editor/logo.svg'), 'image/svg+xml'],
  }[pathname]
  if (file) {
    // The policy the build gives the editor, which reaches its proxy's origin too.
    const { editorContentSecurityPolicy } = await vite.ssrLoadModule('/server/security-headers.ts')
    const policy = editorContentSecurityPolicy({ connectOrigins: [proxyOrigin], imageOrigins: [] })
    return {
      headers: { 'content-type': file[1], 'content-security-policy': policy },
      body: await readFile(file[0]),
    }
  }
  if (pathname !== '/admin/config.yml') return { status: 404, body: 'Not found' }
  const { cmsConfig } = await vite.ssrLoadModule('/editor/config.ts')
  return {
    headers: { 'content-type': 'text/yaml; charset=utf-8' },
    body: cmsConfig({ kind: 'local', proxyUrl: `${proxyOrigin}${cms.PROXY_PATH}` }, origin),
  }
}

const refuse = (response, status, text) =>
  response
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    .end(text)

// The hot-update socket too answers this machine's names only.
httpServer.prependListener('upgrade', (request, socket) => {
  if (!hosts.has(request.headers.host ?? '')) socket.destroy()
})

httpServer.on('ready-request', async (request, response) => {
  if (!hosts.has(request.headers.host ?? '')) return refuse(response, 403, 'Unknown Host\n')
  const { pathname } = new URL(request.url ?? '/', 'http://dev')
  if (isPrivate(pathname)) return refuse(response, 404, 'Not found\n')
  if (pathname.startsWith('/api/')) return api.routing(request, response)
  const editor = await contentEditor(request, pathname)
  if (editor) {
    response
      .writeHead(editor.status ?? 200, { 'cache-control': 'no-store', ...editor.headers })
      .end(editor.body)
    return
  }
  vite.middlewares(request, response, async () => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end()
        return
      }
      const html = await renderPage(vite, pathname)
      if (html === null) {
        response.writeHead(302, { location: '/' }).end()
        return
      }
      response
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': await developmentPolicy(vite, origin),
        })
        .end(html)
    } catch (error) {
      // A content file's error is a sentence for the person who edits it
      // (pipeline/loader/content-error.ts): it is shown alone, without a stack.
      const message = error.plugin === 'content' ? error.message : String(error.stack)
      vite.ssrFixStacktrace(error)
      console.error(error.plugin === 'content' ? message : error)
      // Vite's error overlay, and its client, so the page reloads by itself once the file is
      // fixed.
      const overlay = JSON.stringify({ message, stack: '' }).replace(/</g, '\\u003c')
      // For a content file, Vite's tip about its own configuration is replaced by what the
      // person who edits the file does next.
      const tip =
        error.plugin === 'content'
          ? 'overlay.shadowRoot?.querySelector(".tip")?.replaceChildren("Corrige el archivo y guárdalo: esta página se recarga sola.");'
          : ''
      response
        .writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(
          '<!doctype html><html lang="es"><meta charset="utf-8"><title>Error</title>' +
            '<script type="module">import { ErrorOverlay } from "/@vite/client";' +
            `const overlay = new ErrorOverlay(${overlay}); document.body.append(overlay); ${tip}</script>`,
        )
    }
  })
})

console.log(`Development server on ${origin}/ (pages rendered on each request)`)
console.log(
  `LOCAL mode: demo requests are stored in ${leads.store.location} (list them: npm run outbox` +
    `${dataDir === resolve(root, '.data') ? '' : `, with DATA_DIR=${dataDir}`})`,
)
markReady()
if (editorEnabled)
  console.log(
    `\nEditor de contenido: ${origin}/admin/  (la página: ${origin}/)\n` +
      `Proxy del editor: ${proxyOrigin}${cms.PROXY_PATH}  (solo responde al editor)\n`,
  )

const stop = async () => {
  await Promise.allSettled([vite.close(), api.close()])
  await leads.stop()
  httpServer.close()
  proxyServer?.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
