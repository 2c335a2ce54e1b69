// The production HTTP server: serves the prerendered site from dist/ with precompressed
// bodies, the security headers on every response, and — for a site built in own-server mode — the
// demo-request intake (intake/demo-intake.ts), which hands each request to the demo-request
// service (demo-requests/demo-requests.ts). `npm run dev` runs this same app, with the pages
// rendered on each request by Vite instead of read from dist/ (LivePages).
import { readFileSync } from 'node:fs'
import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { Socket } from 'node:net'
import { extname, join, resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import proxyAddr from '@fastify/proxy-addr'
import { ConnectionLimits, type ConnectionCounts } from './http/index.js'
import { BODY_LIMIT, demoIntake } from './intake/index.js'
import { DEFAULT_TIMEOUTS, type ServerLimits, type ServerTimeouts } from './intake/index.js'
import { fieldMessagesFrom } from '../src/contract/demo-request-fields.js'
import type { Readiness } from './store/index.js'
import type { DemoRequests } from './demo-requests/index.js'
import { COMPRESSIBLE } from './http/index.js'
import { OneLinePerRequest } from './http/index.js'
import { classifyPath } from './http/index.js'
import { DEFAULT_TURN_LIMITS, oneRequestAtATime } from './http/index.js'
import {
  NO_STORE,
  REVALIDATE_CACHE,
  cacheControlFor,
  editorSecurityHeaders,
  EDITOR_PATH,
  isEditorPath,
  securityHeaders,
} from './http/index.js'
import { readSiteBuild, SiteBuildError, type SiteBuild } from './http/index.js'
import { TEXT, clientErrorStatus, sendText } from './http/index.js'
import { whatsappWebhook } from './channels/whatsapp/index.js'
import { bookingRoutes } from './booking/index.js'

/** @internal the tests and the browser suites' test server build the app with it */
export interface AppOptions {
  distDir: string
  logger?: FastifyServerOptions['logger']
  /** Rate, connection and store limits: the settings' (server/settings/config.ts). */
  limits: ServerLimits
  /** How long a client may take; the defaults let a slow phone through. */
  timeouts?: Partial<ServerTimeouts>
  /**
   * The reverse proxies whose X-Forwarded-For names the client: their addresses or CIDRs, or
   * how many there are in front of the server (every peer is then a proxy).
   */
  trustProxy?: string[] | number | false
  /**
   * The demo requests of a local build: stored, then delivered (lead-service.ts opens them; its
   * owner stops them). A local build needs them; a build for the e-mail service takes none.
   */
  demoRequests?: DemoRequests
  /** `npm run dev`: the pages rendered from the sources on each request, not dist/'s files. */
  livePages?: LivePages
}

/**
 * The site as `npm run dev` serves it (scripts/dev-server/live-pages.ts): described and rendered
 * from the sources on each request, with hot reload, under the same serving rules, headers and
 * routes as the build.
 */
export interface LivePages {
  /** What the build would say of itself (its mode, its policy's sources). */
  build: SiteBuild
  /**
   * Called before the app's routes are declared, on the app itself (not in a plugin of its own),
   * so that what it adds runs before every route: it answers the requests that are its own (the
   * pages' modules, hot updates) and lets the others through to the app.
   */
  register(app: FastifyInstance): void
  /** Answers a file the serving rules allow (a page, '/index.html'); false: there is none. */
  answer(file: string, reply: FastifyReply): Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    site: {
      build: SiteBuild
      distDir: string
      outboxFile: string | null
      connections: ConnectionCounts
    }
  }
}

/** Whether a peer is one of the trusted reverse proxies. */
function proxyMatcher(trustProxy: AppOptions['trustProxy']): (address: string) => boolean {
  if (trustProxy === undefined || trustProxy === false) return () => false
  if (typeof trustProxy === 'number') return () => true
  const trusted = proxyAddr.compile(trustProxy)
  return (address) => trusted(address, 0)
}

function readOptional(file: string): Buffer | null {
  try {
    return readFileSync(file)
  } catch {
    return null
  }
}

/** The lines of a plain-text answer the server writes itself, with the site's headers. */
function plainAnswerHeaders(headers: Record<string, string>, body: string) {
  return {
    ...headers,
    'cache-control': REVALIDATE_CACHE,
    'content-type': TEXT,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  }
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (oversized headers,
 * malformed request lines) are answered here, with the same security headers as the rest.
 */
function clientErrorHandler(headers: Record<string, string>) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400
    const body = STATUS_CODES[status] ?? 'Bad Request'
    // Destroyed once the answer is out (or at once if the client does not read it): a socket
    // only half closed would keep its connection slot for minutes.
    const destroy = (): void => void socket.destroy()
    setTimeout(destroy, 1_000).unref()
    const lines = [
      `HTTP/1.1 ${status} ${body}`,
      ...Object.entries(plainAnswerHeaders(headers, body)).map(
        ([name, value]) => `${name}: ${value}`,
      ),
      '',
      body,
    ]
    if (socket.writable) socket.end(lines.join('\r\n'), destroy)
    else destroy()
  }
}

/** Answers a request Node would otherwise answer itself, bare: with the site's headers. */
function answerPlainly(headers: Record<string, string>) {
  return (response: ServerResponse, status: number): void => {
    const body = STATUS_CODES[status] ?? 'Error'
    response.shouldKeepAlive = false
    response.writeHead(status, plainAnswerHeaders(headers, body)).end(body)
  }
}

/** How many Host fields a request carries (Node keeps only the first of several). */
function hostFields(rawHeaders: readonly string[]): number {
  let count = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === 'host') count++
  }
  return count
}

interface HttpServerOptions {
  timeouts: ServerTimeouts
  limits: ServerLimits
  headers: Record<string, string>
  isProxy: (address: string) => boolean
}

/**
 * The HTTP server under Fastify: the timeouts, the connection limits, one request at a time per
 * connection, and the answers Node would give bare (no Host or two, an unknown Expect) given
 * with the site's headers, as RFC 9112 asks for a request with two Host fields.
 */
function httpServer(
  fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void,
  { timeouts, limits, headers, isProxy }: HttpServerOptions,
): { server: Server; connections: ConnectionLimits } {
  const answer = answerPlainly(headers)
  const server = createServer({
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    connectionsCheckingInterval: timeouts.checkEvery,
    keepAliveTimeout: timeouts.keepAlive,
    requireHostHeader: false, // checked below, so that the 400 carries the headers
  })
  server.setTimeout(timeouts.idle)
  const connections = new ConnectionLimits(server, {
    total: limits.maxConnections,
    perClient: limits.maxConnectionsPerClient,
    isProxy,
  })
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const hosts = hostFields(request.rawHeaders)
    if (hosts > 1 || (hosts === 0 && request.httpVersion === '1.1')) return answer(response, 400)
    fastifyHandler(request, response)
  }
  server.on(
    'request',
    oneRequestAtATime(handler, DEFAULT_TURN_LIMITS, (socket, busy) =>
      connections.setBusy(socket, busy),
    ),
  )
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) =>
    answer(response, 417),
  )
  return { server, connections }
}

export function buildApp(options: AppOptions): FastifyInstance {
  const distDir = resolve(options.distDir)
  const live = options.livePages ?? null
  const build = live?.build ?? readSiteBuild(distDir)
  const headers = securityHeaders(build)
  // The content editor, when the build ships one, is served under its own headers.
  const editorHeaders = build.editor
    ? editorSecurityHeaders({ ...build, editor: build.editor })
    : null
  const notFoundPage = live === null ? readOptional(join(distDir, '404.html')) : null
  const { limits } = options
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const trustProxy = options.trustProxy ?? false
  let shuttingDown = false

  let connections: ConnectionLimits | undefined
  const requestLog = new OneLinePerRequest()
  const app = Fastify({
    logger: options.logger ?? false,
    logController: requestLog,
    bodyLimit: BODY_LIMIT,
    // Bounds the time a client may take to send its request (slow-loris) or sit idle, the
    // connections it may hold and the requests it may have in flight.
    serverFactory: (handler) => {
      const made = httpServer(handler, {
        timeouts,
        limits,
        headers,
        isProxy: proxyMatcher(trustProxy),
      })
      connections = made.connections
      return made.server
    },
    // Fastify's 503-while-closing bypasses the hooks (no security headers); serving the
    // request with Connection: close is just as correct.
    return503OnClosing: false,
    trustProxy:
      typeof trustProxy === 'number'
        ? (_address: string, hop: number) => hop < trustProxy
        : Array.isArray(trustProxy)
          ? trustProxy.join(',')
          : trustProxy,
    clientErrorHandler: clientErrorHandler(headers),
    // Malformed percent-encoding the router cannot decode: a plain 400 with our headers.
    frameworkErrors: (_error, _request, reply) => {
      reply.headers(headers).header('cache-control', REVALIDATE_CACHE)
      sendText(reply, 400)
    },
  })

  if (connections === undefined) throw new Error('Fastify did not make its server')

  // Said once per change, whether a request, an append or a monitor's probe noticed it.
  const logReadiness = (state: Readiness): void => {
    if (state.ready) app.log.info({ event: 'ready' }, 'ready: the store can be written again')
    else app.log.error({ event: 'not-ready', reason: state.reason }, `not ready: ${state.reason}`)
  }
  const demoRequests = build.mode === 'own-server' ? (options.demoRequests ?? null) : null
  if (build.mode === 'own-server' && demoRequests === null) {
    throw new Error(`${distDir} is a local build: it needs a store for its demo requests`)
  }
  demoRequests?.watchReadiness(logReadiness)
  const outboxFile = demoRequests?.location ?? null
  app.decorate('site', { build, distDir, outboxFile, connections })

  app.addHook('onRequest', async (request, reply) => {
    const forEditor = editorHeaders !== null && isEditorPath(request.url.split('?')[0]!)
    reply.headers(forEditor ? editorHeaders : headers).header('cache-control', REVALIDATE_CACHE)
  })
  app.addHook('onSend', async (_request, reply) => {
    // In-flight keep-alive connections must not keep a closing server alive.
    if (shuttingDown) reply.header('connection', 'close')
  })
  app.addHook('preClose', async () => {
    shuttingDown = true
  })
  app.addHook('onClose', async () => {
    requestLog.close()
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    reply.header('cache-control', REVALIDATE_CACHE)
    const status = clientErrorStatus(error)
    if (status !== null) return sendText(reply, status)
    request.log.error({ err: error }, 'request failed')
    return sendText(reply, 500)
  })

  const notFound = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    reply.header('cache-control', REVALIDATE_CACHE)
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!request.url.startsWith('/api/')) return sendText(reply.header('allow', 'GET, HEAD'), 405)
      return sendText(reply, 404)
    }
    if (notFoundPage === null) return sendText(reply, 404)
    return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage)
  }
  app.setNotFoundHandler(notFound)
  live?.register(app)

  // Live pages are rendered, never read from distDir (`npm run dev` may have no build).
  if (live === null) {
    app.register(fastifyStatic, {
      root: distDir,
      serve: false, // routing is ours (classifyPath); the plugin only sends files
      preCompressed: true,
      cacheControl: false, // set below, by path
      dotfiles: 'ignore',
      index: false,
    })
  }

  // Liveness: the process serves requests. A supervisor restarts the server when it fails.
  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', NO_STORE).send({ status: 'ok' }),
  )
  // Readiness: a demo request sent now would be stored. A load balancer or uptime monitor
  // watches this one; restarting the process would not free a full disk.
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', NO_STORE)
    const state =
      demoRequests !== null ? await demoRequests.readiness() : ({ ready: true } as const)
    if (state.ready) return reply.send({ status: 'ok' })
    // The reason (paths, sizes) goes to the log only, not to whoever asks.
    return reply.code(503).send({ status: 'unavailable' })
  })

  // Delivery: 200 while every configured channel delivers, 503 once one has failed (or kept a
  // request waiting) for LEADS_ALERT_AFTER_SECONDS. For uptime monitors; it does not take the
  // server out of rotation (/readyz does that), as requests are still stored.
  app.get('/healthz/delivery', async (_request, reply) => {
    reply.header('cache-control', NO_STORE)
    if (demoRequests === null) {
      return reply.send({ status: 'ok', channels: {}, deadLetters: 0, held: 0 })
    }
    const health = await demoRequests.health()
    return reply.code(health.ok ? 200 : 503).send(health.body)
  })

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: (request, reply) => {
      // The editor's page, at /admin and /admin/ (its own files are named below it).
      const path = request.url.split('?')[0]
      if (
        live === null &&
        editorHeaders !== null &&
        (path === EDITOR_PATH || path === `${EDITOR_PATH}/`)
      )
        return reply.type('text/html; charset=utf-8').sendFile(`${EDITOR_PATH}/index.html`)
      const target = classifyPath(request.url)
      switch (target.kind) {
        case 'bad-request':
          return sendText(reply, 400)
        case 'not-found':
          return notFound(request, reply)
        case 'redirect':
          return reply.redirect('/', 302)
        case 'file':
          if (live !== null) {
            return live
              .answer(target.file, reply)
              .then((answered) => (answered ? reply : notFound(request, reply)))
          }
          // Reset to no-cache by the 404 and error paths if the file turns out not to exist.
          reply.header('cache-control', cacheControlFor(target.file))
          if (COMPRESSIBLE.has(extname(target.file).toLowerCase())) {
            reply.header('vary', 'Accept-Encoding')
          }
          return reply.sendFile(target.file)
      }
    },
  })

  if (demoRequests !== null) {
    registerLeadIntake(app, demoRequests, limits, build, distDir)
  }
  return app
}

/**
 * The routes that take demo requests into the store: the intake (intake/demo-intake.ts) and,
 * when that channel is on, the WhatsApp status webhook.
 */
function registerLeadIntake(
  app: FastifyInstance,
  demoRequests: DemoRequests,
  limits: ServerLimits,
  /** The form's messages for the door's answers and the booking's words (dist/.site.json). */
  { formMessages, bookingTexts }: Pick<SiteBuild, 'formMessages' | 'bookingTexts'>,
  distDir: string,
): void {
  const keys = demoRequests.whatsappKeys
  if (keys !== null) {
    app.register(whatsappWebhook, {
      ...keys,
      receive: (statuses) => demoRequests.receiveWhatsAppStatuses(statuses),
    })
  }
  const { bookings } = demoRequests
  // The booking's address, its JSON and its pages without JavaScript (decision 026).
  if (bookings !== null) {
    if (bookingTexts === null) {
      throw new SiteBuildError(
        `${distDir} was built before the booking of a demo and has none of its words: run npm run build again.`,
      )
    }
    app.register(bookingRoutes, { bookings, texts: bookingTexts })
  }
  app.register(demoIntake, {
    demoRequests,
    limits,
    bookings,
    // Our own door opens with a build that hands over the form's messages (one built before
    // the door has none, and its page sends to the e-mail service's endpoint).
    ...(formMessages !== null && {
      door: { messages: fieldMessagesFrom(formMessages), keys: demoRequests.store },
    }),
  })
}
