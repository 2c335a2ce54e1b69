// A static host serving a fake build to a test file, as the serving checks want it: nginx with
// deploy/nginx.conf, or Cloudflare's runtime for Pages with the build's _headers and _redirects.
import { chmod, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SiteBuild } from '../../server/http/site-build.js'
import { startSite, type RunningSite } from '../site.js'
import { makeFakeDist, SECRET_MARKER } from './fake-dist.js'
import { PAGES_WAYS } from './pages-runtime.js'
import { madeForThisFile } from './per-file.js'
import type { ServingTarget } from './serving-checks.js'

export interface ServedBuild {
  site: RunningSite
  target: ServingTarget
}

/** The host started before the file's tests (or the describe block's) and stopped after them. */
export function servedForThisFile(host: 'nginx' | 'pages', build: SiteBuild): ServedBuild {
  return madeForThisFile(
    `the ${host} site`,
    async () => {
      const dist = await makeFakeDist(build)
      try {
        // nginx's workers run unprivileged.
        if (host === 'nginx') await chmod(dist.root, 0o755)
        const site = await startSite({ host, build: { dir: dist.dist } })
        // The traversal checks look for this file just outside the served root.
        if (host === 'nginx')
          await writeFile(join(site.workDir!, 'secret.txt'), `${SECRET_MARKER}\n`)
        const target: ServingTarget = { url: site.origin, dist, build, brotli: false }
        if (host === 'pages') target.staticHost = PAGES_WAYS
        return { site, target }
      } catch (error) {
        await rm(dist.root, { recursive: true, force: true })
        throw error
      }
    },
    async ({ site, target }) => {
      await site.stop()
      await rm(target.dist.root, { recursive: true, force: true })
    },
  )
}
