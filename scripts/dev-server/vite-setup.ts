// Vite in middleware mode on the dev server's own HTTP server: hot updates on the same port,
// the pages and modules for this machine's names only, and nothing private under /@fs/.
import type { Server } from 'node:http'
import { resolve } from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { reloadServerRenderedChanges } from './page-renderer.ts'
import { PRIVATE_FOLDERS } from './private-paths.ts'

export function startVite(options: {
  root: string
  httpServer: Server
  hosts: Set<string>
  dataDir: string
  optimizeDeps: string[]
}): Promise<ViteDevServer> {
  const { root, httpServer, hosts, dataDir } = options
  return createServer({
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
    optimizeDeps: { include: options.optimizeDeps },
  })
}
