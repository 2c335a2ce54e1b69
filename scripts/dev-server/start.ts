// npm run dev, put together: the production app (server/app.ts: the same intake, serving rules,
// security headers and health routes, on the demo-request service of `npm start`), with its
// pages rendered on each request and hot-reloaded by Vite inside it (live-pages.ts). A busy port
// is one line; an extension (npm run cms) adds its routes and its own listener.
import { createServer, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { buildApp } from '../../server/app.ts'
import { openLeadService, type LeadService } from '../../server/lead-service.ts'
import { readConfig, type ServerConfig } from '../../server/settings/index.ts'
import { isOperatorError } from '../../server/start-server.ts'
import type { DevSettings } from '../dev-settings.ts'
import type { DevServerExtension } from './extension.ts'
import { exitIfBusy } from './listen.ts'
import { livePages } from './live-pages.ts'
import { describeLiveBuild, renderPage } from './page-renderer.ts'
import { startVite } from './vite-setup.ts'

/** A setting or a DATA_DIR the operator can mend stops the start with one line, exit 1. */
function exitOnOperatorError(error: unknown): never {
  if (!isOperatorError(error)) throw error
  console.error(error.message)
  process.exit(1)
}

export async function startDevServer(
  root: string,
  settings: DevSettings,
  extension: DevServerExtension | null,
): Promise<void> {
  const { port, host, dataDir } = settings
  const busyPort =
    extension?.busyPort(port, host) ??
    `Port ${port} on ${host} is in use: stop what uses it, or choose another with PORT=${port + 1}`
  await exitIfBusy(port, host, busyPort)
  await extension?.tryPorts()
  // The server's settings, as `npm start` reads them, with the dev server's DATA_DIR.
  let config: ServerConfig
  let leads: LeadService
  try {
    config = readConfig({ ...process.env, DATA_DIR: dataDir }, root)
    leads = await openLeadService(config, (error) => {
      console.error(`lost the lock on DATA_DIR (${error.message}): stopping`)
      process.exit(1)
    })
  } catch (error) {
    exitOnOperatorError(error)
  }
  const hostnames = [...new Set([host, '127.0.0.1', 'localhost'])]
  let origin = ''
  let hosts: ReadonlySet<string> = new Set()

  // Vite is made first, as the app's headers come from the pages' description, which Vite
  // loads; its hot-update socket is handed the app's upgrade requests (below).
  const hotUpdates = createServer()
  const vite = await startVite({
    root,
    hotUpdates,
    hostnames,
    dataDir,
    optimizeDeps: extension?.optimizeDeps ?? [],
  })
  const app = buildApp({
    distDir: config.distDir,
    logger: { level: 'warn' },
    limits: config,
    trustProxy: config.trustProxy,
    demoRequests: leads.demoRequests,
    livePages: livePages({
      vite,
      root,
      build: await describeLiveBuild(vite),
      hosts: () => hosts,
      origin: () => origin,
    }),
  })
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hosts.has(request.headers.host ?? '')) socket.destroy()
    else hotUpdates.emit('upgrade', request, socket, head)
  })
  await extension?.register(app, { root, vite, origin: () => origin })
  await leads.begin(app.log)

  try {
    await app.listen({ port, host })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error
    console.error(busyPort)
    process.exit(1)
  }
  const actualPort = app.server.address() as { port: number }
  origin = `http://${host}:${actualPort.port}`
  hosts = new Set(hostnames.map((name) => `${name}:${actualPort.port}`))
  await extension?.listen()
  // The home page rendered once, so that the first visit finds Vite's modules ready; a page
  // that cannot be rendered now shows its error when it is opened.
  await renderPage(vite, root, '/index.html').catch(() => null)

  console.log(`Development server on ${origin}/ (pages rendered on each request)`)
  console.log(
    `Own-server mode: demo requests are stored in ${leads.demoRequests.location} (list them: ` +
      `DATA_DIR=${dataDir} npm run outbox)`,
  )
  if (extension) console.log(extension.banner())

  const stop = async () => {
    await Promise.allSettled([vite.close(), app.close()])
    await leads.stop()
    extension?.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop())
  process.on('SIGTERM', () => void stop())
}
