// Cloudflare's runtime for Pages serving a build with its generated `_headers` and `_redirects`,
// checked with the rules the Node server and nginx are checked with. The checks of bytes on the
// wire stay with the servers we run: on Pages, Cloudflare's edge answers those.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EDITOR_BUILD,
  OWN_SERVER_BUILD,
  makeFakeDist,
  type FakeDist,
} from '../../testing/server/fake-dist.js'
import { PAGES_WAYS, WRANGLER_BIN } from '../../testing/server/pages-runtime.js'
import { processGroupAlive, startSite, type RunningSite } from '../../testing/site.js'
import {
  EDITOR_CHECKS,
  SERVING_CHECKS,
  type ServingTarget,
} from '../../testing/server/serving-checks.js'

describe.skipIf(WRANGLER_BIN === null)(
  'Cloudflare Pages runtime with _headers and _redirects: the serving rules shared with Node',
  () => {
    let dist: FakeDist
    let pages: RunningSite
    let target: ServingTarget

    beforeAll(async () => {
      dist = await makeFakeDist()
      pages = await startSite({ host: 'pages', build: { dir: dist.dist } })
      target = {
        url: pages.origin,
        dist,
        build: OWN_SERVER_BUILD,
        brotli: false,
        staticHost: PAGES_WAYS,
      }
    })

    afterAll(async () => {
      await pages?.stop()
      if (dist) await rm(dist.root, { recursive: true, force: true })
    })

    for (const check of SERVING_CHECKS) {
      it.skipIf(check.serversWeRunOnly)(check.name, () => check.run(target))
    }

    it('stops with everything it started: no wrangler, no workerd left', async () => {
      await pages.stop()
      expect(processGroupAlive(pages.child.pid!)).toBe(false)
    })
  },
)

describe.skipIf(WRANGLER_BIN === null)(
  'Cloudflare Pages runtime with the content editor in the build',
  () => {
    let dist: FakeDist
    let pages: RunningSite
    let target: ServingTarget
    beforeAll(async () => {
      dist = await makeFakeDist(EDITOR_BUILD)
      pages = await startSite({ host: 'pages', build: { dir: dist.dist } })
      target = {
        url: pages.origin,
        dist,
        build: EDITOR_BUILD,
        brotli: false,
        staticHost: PAGES_WAYS,
      }
    })
    afterAll(async () => {
      await pages?.stop()
      if (dist) await rm(dist.root, { recursive: true, force: true })
    })
    for (const check of EDITOR_CHECKS) it(check.name, () => check.run(target))
  },
)
