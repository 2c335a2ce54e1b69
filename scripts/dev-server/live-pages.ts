// npm run dev's pages inside the production app (server/app.ts, LivePages): Vite in middleware
// mode answers the pages' modules and hot updates, and each page is rendered on request by the
// renderer of the prerender (page-renderer.ts). What the serving rules refuse (classifyPath) is
// answered by the app as in production, and never reaches Vite; nor do the builds.
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ViteDevServer } from 'vite'
import type { LivePages } from '../../server/app.ts'
import { classifyPath, type SiteBuild } from '../../server/http/index.ts'
import { developmentPolicy, renderErrorPage, renderPage } from './page-renderer.ts'
import { PRIVATE_FOLDERS } from './vite-setup.ts'

/**
 * Vite's caches are the only hidden folders it serves (its optimized dependencies, and the
 * pictures the content plugin made), wherever node_modules is (/@fs/… when it is elsewhere).
 */
const VITE_CACHES = /\/node_modules\/\.(vite|cache)\//g

/**
 * Whether Vite may answer `url`: what the serving rules would serve (a cache of Vite's is
 * judged as the node_modules that holds it), never a build.
 */
function forVite(url: string): boolean {
  const target = classifyPath(url.replace(VITE_CACHES, '/node_modules/'))
  if (target.kind === 'not-found' || target.kind === 'bad-request') return false
  return !PRIVATE_FOLDERS.includes(url.split('/')[1]?.split('?')[0] ?? '')
}

interface LivePagesOptions {
  vite: ViteDevServer
  root: string
  build: SiteBuild
  /** The Host values this server answers: this machine's names, on its port. */
  hosts: () => ReadonlySet<string>
  /** The site's origin, once it listens (the hot-update socket's, in the pages' policy). */
  origin: () => string
}

export function livePages({ vite, root, build, hosts, origin }: LivePagesOptions): LivePages {
  return {
    build,

    register(app: FastifyInstance) {
      // A page reached by DNS rebinding gets nothing: this machine's names only, on any route.
      app.addHook('onRequest', async (request, reply) => {
        if (!hosts().has(request.headers.host ?? '')) {
          return reply.code(403).type('text/plain; charset=utf-8').send('Unknown Host\n')
        }
        return undefined
      })
      app.addHook('onRequest', (request, reply, done) => {
        if (!forVite(request.url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
          return done()
        }
        // Vite's answers carry the site's headers too; its own (type, caching) replace them.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) reply.raw.setHeader(name, value)
        }
        // What Vite answers ends here; the rest (a page, a missing file) goes on to the routes.
        vite.middlewares(request.raw, reply.raw, (error?: unknown) =>
          done(error instanceof Error ? error : undefined),
        )
      })
    },

    async answer(file: string, reply: FastifyReply) {
      // The error page too: Vite's overlay is an inline script.
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', developmentPolicy(build, origin()))
      try {
        const html = await renderPage(vite, root, file)
        if (html === null) return false
        reply.type('text/html; charset=utf-8').send(html)
      } catch (error) {
        reply
          .code(500)
          .type('text/html; charset=utf-8')
          .send(renderErrorPage(vite, error as Error))
      }
      return true
    },
  }
}
