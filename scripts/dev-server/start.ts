// npm run dev, put together: the site's port listens first (a busy port is one line), then an
// extension's own ports (npm run cms), then Vite, the pages and the intake start; requests that
// arrived meanwhile are answered once all of it runs (start-gate.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { DevSettings } from '../dev-settings.ts'
import type { DevServerExtension } from './extension.ts'
import { startLeadIntake } from './lead-intake.ts'
import { listenOrExit } from './listen.ts'
import { developmentPolicy, renderErrorPage, renderPage } from './page-renderer.ts'
import { allowedHosts, isPrivate } from './private-paths.ts'
import { StartGate } from './start-gate.ts'
import { startVite } from './vite-setup.ts'

const refuse = (response: ServerResponse, status: number, text: string) =>
  response
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    .end(text)

export async function startDevServer(
  root: string,
  settings: DevSettings,
  extension: DevServerExtension | null,
): Promise<void> {
  const { port, host, dataDir } = settings
  const gate = new StartGate()
  const httpServer = createServer()
  const serve = gate.hold(httpServer)
  const actualPort = await listenOrExit(
    httpServer,
    port,
    host,
    extension?.busyPort(port, host) ??
      `Port ${port} on ${host} is in use: stop what uses it, or choose another with PORT=${port + 1}`,
  )
  await extension?.listen(gate)
  const origin = `http://${host}:${actualPort}`
  const hosts = allowedHosts(host, actualPort)

  const vite = await startVite({
    root,
    httpServer,
    hosts,
    dataDir,
    optimizeDeps: extension?.optimizeDeps ?? [],
  })
  await extension?.start({ root, origin, vite })
  const { api, leads } = await startLeadIntake(root, dataDir)

  // The hot-update socket too answers this machine's names only.
  httpServer.prependListener('upgrade', (request: IncomingMessage, socket) => {
    if (!hosts.has(request.headers.host ?? '')) socket.destroy()
  })

  serve(async (request, response) => {
    if (!hosts.has(request.headers.host ?? '')) return refuse(response, 403, 'Unknown Host\n')
    const { pathname } = new URL(request.url ?? '/', 'http://dev')
    if (isPrivate(pathname, root, dataDir)) return refuse(response, 404, 'Not found\n')
    if (pathname.startsWith('/api/')) return api.routing(request, response)
    const answer = await extension?.answer(request, pathname)
    if (answer) {
      response
        .writeHead(answer.status ?? 200, { 'cache-control': 'no-store', ...answer.headers })
        .end(answer.body)
      return
    }
    vite.middlewares(request, response, async () => {
      try {
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          response.writeHead(405, { allow: 'GET, HEAD' }).end()
          return
        }
        const html = await renderPage(vite, root, pathname)
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
        response
          .writeHead(500, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          })
          .end(renderErrorPage(vite, error as Error))
      }
    })
  })

  console.log(`Development server on ${origin}/ (pages rendered on each request)`)
  console.log(
    `Own-server mode: demo requests are stored in ${leads.store.location} (list them: ` +
      `DATA_DIR=${dataDir} npm run outbox)`,
  )
  if (extension) console.log(extension.banner())
  gate.ready()

  const stop = async () => {
    await Promise.allSettled([vite.close(), api.close()])
    await leads.stop()
    httpServer.close()
    extension?.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}
