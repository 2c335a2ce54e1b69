// `npm run cms` as an extension of the development server (scripts/dev-server/extension.ts):
// the editor's page, bundle and configuration at /admin/, routes of the site's app, and Decap's local
// proxy on a listener of its own, 127.0.0.1:CMS_PROXY_PORT, in the same process so a SIGTERM
// stops it too. The proxy reads and writes content/ in this working tree and answers the
// editor's page only. Its own dependencies are installed on first use (editor/install.mjs).
import { createServer, type IncomingMessage } from 'node:http'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { DevServerExtension } from '../scripts/dev-server/extension.ts'
import { exitIfBusy, listenOrExit } from '../scripts/dev-server/listen.ts'
import { editorContentSecurityPolicy } from '../server/http/index.ts'
import { decapRequire } from './install.mjs'
import { PROXY_PATH, editorProxy } from './proxy.mjs'

/** The proxy listens on the loopback address only, whatever HOST says. */
const PROXY_HOST = '127.0.0.1'

/** An answer the editor gives itself, at /admin/. */
interface EditorAnswer {
  status?: number
  headers?: Record<string, string>
  body?: string | Buffer
}

export function editorExtension(root: string, proxyPort: number): DevServerExtension {
  const busyProxyPort = `El puerto ${proxyPort} de ${PROXY_HOST}, el del proxy del editor, está ocupado: cierra lo que lo usa o elige otro, por ejemplo CMS_PROXY_PORT=${proxyPort + 1} npm run cms`
  let origin = ''
  let siteOrigin = (): string => origin
  let proxyOrigin = ''
  let decapBundle = ''
  let cmsConfig: ((target: object, origin: string) => string) | null = null
  let proxy: Awaited<ReturnType<typeof editorProxy>> | null = null
  // Listens once the site does; the site's origin is known by then.
  const proxyServer = createServer((request, response) => {
    proxy!(request, response, { origin, host: new URL(proxyOrigin).host }).catch(
      (error: unknown) => {
        console.error(error)
        if (!response.headersSent) response.writeHead(500, { vary: 'Origin' })
        response.end()
      },
    )
  })

  async function answer(request: IncomingMessage, pathname: string): Promise<EditorAnswer> {
    // The proxy answers the editor's exact origin only: the editor is opened there.
    if (request.headers.host !== new URL(origin).host)
      return { status: 302, headers: { location: `${origin}/admin/` } }
    if (pathname === '/admin') return { status: 301, headers: { location: '/admin/' } }
    // Compiled by Vite like any module of the site.
    if (pathname === '/admin/formats.js')
      return { status: 302, headers: { location: '/editor/formats.ts' } }
    const file = {
      '/admin/': [resolve(root, 'editor/index.html'), 'text/html; charset=utf-8'],
      '/admin/decap-cms.js': [decapBundle, 'text/javascript'],
      '/admin/manual-init.js': [resolve(root, 'editor/manual-init.js'), 'text/javascript'],
      '/admin/logo.svg': [resolve(root, 'editor/logo.svg'), 'image/svg+xml'],
    }[pathname]
    if (file) {
      // The policy the build gives the editor, which reaches its proxy's origin too.
      const policy = editorContentSecurityPolicy({
        connectOrigins: [proxyOrigin],
        imageOrigins: [],
      })
      return {
        headers: { 'content-type': file[1]!, 'content-security-policy': policy },
        body: await readFile(file[0]!),
      }
    }
    if (pathname !== '/admin/config.yml' || cmsConfig === null)
      return { status: 404, body: 'Not found' }
    return {
      headers: { 'content-type': 'text/yaml; charset=utf-8' },
      body: cmsConfig({ kind: 'local', proxyUrl: `${proxyOrigin}${PROXY_PATH}` }, origin),
    }
  }

  return {
    // What the editor's modules use that no page of the site does (its checks, its preview):
    // optimized up front, not found on first load, which would make Vite reload the editor and
    // leave it without its modules.
    optimizeDeps: ['yaml', 'markdown-it', 'zod', 'react-dom/server'],

    busyPort: (port, host) =>
      `El puerto ${port} de ${host} está ocupado: cierra lo que lo usa o elige otro, por ejemplo PORT=${port + 1} npm run cms`,

    async register(app, context) {
      decapBundle = decapRequire().resolve('decap-cms')
      proxy = await editorProxy(root)
      ;({ cmsConfig } = (await context.vite.ssrLoadModule('/editor/config.ts')) as {
        cmsConfig: (target: object, origin: string) => string
      })
      siteOrigin = context.origin
      const serve = async (request: FastifyRequest, reply: FastifyReply) => {
        const { pathname } = new URL(request.url, 'http://dev')
        const given = await answer(request.raw, pathname)
        return reply
          .code(given.status ?? 200)
          .headers({ 'cache-control': 'no-store', ...given.headers })
          .send(given.body ?? '')
      }
      // Every method, as before: only the files above are answered, anything else is a 404.
      app.all('/admin', serve)
      app.all('/admin/*', serve)
    },

    tryPorts: () => exitIfBusy(proxyPort, PROXY_HOST, busyProxyPort),

    async listen() {
      const port = await listenOrExit(proxyServer, proxyPort, PROXY_HOST, busyProxyPort)
      proxyOrigin = `http://${PROXY_HOST}:${port}`
      origin = siteOrigin()
    },

    banner: () =>
      `\nEditor de contenido: ${origin}/admin/  (la página: ${origin}/)\n` +
      `Proxy del editor: ${proxyOrigin}${PROXY_PATH}  (solo responde al editor)\n`,

    close: () => void proxyServer.close(),
  }
}
