// Vite in middleware mode inside the app (live-pages.ts): hot updates on the site's own port,
// the pages and modules for this machine's names only, and nothing private under /@fs/.
import type { Server } from 'node:http'
import { resolve } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { reloadServerRenderedChanges } from './page-renderer.ts'

/** What the dev server never serves, at the top of the repository: the builds and reports. */
export const PRIVATE_FOLDERS = [
  'dist',
  'build',
  'bench-results',
  'engines-results',
  'test-results',
  'playwright-report',
]

export function startVite(options: {
  root: string
  /** Where the hot-update socket's upgrade requests arrive. */
  hotUpdates: Server
  /** This machine's names. */
  hostnames: string[]
  dataDir: string
  optimizeDeps: string[]
}): Promise<ViteDevServer> {
  const { root, hotUpdates, hostnames, dataDir } = options
  return createServer({
    root,
    appType: 'custom',
    server: {
      middlewareMode: true,
      ws: { server: hotUpdates },
      // The pages and modules are for this origin's pages only.
      cors: false,
      allowedHosts: hostnames,
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
    optimizeDeps: { include: options.optimizeDeps },
  })
}
