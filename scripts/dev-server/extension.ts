// What a tool that runs beside the development server plugs in (the content editor of
// `npm run cms`, editor/dev-extension.ts): the dev server knows this hook, never the tool.
import type { IncomingMessage } from 'node:http'
import type { ViteDevServer } from 'vite'
import type { StartGate } from './start-gate.ts'

/** An answer the extension gives itself instead of the site's page. */
export interface DevAnswer {
  status?: number
  headers?: Record<string, string>
  body?: string | Buffer
}

export interface DevServerContext {
  root: string
  /** The site's origin, http://HOST:PORT. */
  origin: string
  vite: ViteDevServer
}

export interface DevServerExtension {
  /** Modules Vite optimizes up front for the extension's own pages. */
  optimizeDeps: string[]
  /** The one line said when the site's port is taken. */
  busyPort(port: number, host: string): string
  /** Listens on ports of its own, right after the site's; their requests wait for `gate`. */
  listen(gate: StartGate): Promise<void>
  /** Once Vite runs: whatever the extension needs of the site's origin and modules. */
  start(context: DevServerContext): Promise<void>
  /** Its answer to a request of the site's port, or null to let the site answer. */
  answer(request: IncomingMessage, pathname: string): Promise<DevAnswer | null>
  /** What it prints once everything runs. */
  banner(): string
  close(): void
}
