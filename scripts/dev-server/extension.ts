// What a tool that runs beside the development server plugs in (the content editor of
// `npm run cms`, editor/dev-extension.ts): the dev server knows this hook, never the tool.
import type { FastifyInstance } from 'fastify'
import type { ViteDevServer } from 'vite'

export interface DevServerContext {
  root: string
  /** The site's origin, http://HOST:PORT, once it listens. */
  origin: () => string
  vite: ViteDevServer
}

export interface DevServerExtension {
  /** Modules Vite optimizes up front for the extension's own pages. */
  optimizeDeps: string[]
  /** The one line said when the site's port is taken. */
  busyPort(port: number, host: string): string
  /** Before the start: its own ports tried, a busy one told in one line (listen.ts, exitIfBusy). */
  tryPorts(): Promise<void>
  /** Before the site listens: its routes on the site's app (the editor's pages at /admin/). */
  register(app: FastifyInstance, context: DevServerContext): Promise<void>
  /** Right after the site listens: its listeners on ports of its own. */
  listen(): Promise<void>
  /** What it prints once everything runs. */
  banner(): string
  close(): void
}
