// Cloudflare's runtime for Pages serving a build with its generated `_headers` and `_redirects`,
// checked with the rules the Node server and nginx are checked with. The checks of bytes on the
// wire stay with the servers we run: on Pages, Cloudflare's edge answers those.
import { describe, expect, it } from 'vitest'
import { EDITOR_BUILD, OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'
import { WRANGLER_BIN } from '../../testing/server/pages-runtime.js'
import { EDITOR_CHECKS, SERVING_CHECKS } from '../../testing/server/serving-checks.js'
import { servedForThisFile } from '../../testing/server/static-host.js'
import { processGroupAlive } from '../../testing/site.js'

describe.skipIf(WRANGLER_BIN === null)(
  'Cloudflare Pages runtime with _headers and _redirects: the serving rules shared with Node',
  () => {
    const pages = servedForThisFile('pages', OWN_SERVER_BUILD)

    for (const check of SERVING_CHECKS) {
      it.skipIf(check.serversWeRunOnly)(check.name, () => check.run(pages.target))
    }

    it('stops with everything it started: no wrangler, no workerd left', async () => {
      await pages.site.stop()
      expect(processGroupAlive(pages.site.child.pid!)).toBe(false)
    })
  },
)

describe.skipIf(WRANGLER_BIN === null)(
  'Cloudflare Pages runtime with the content editor in the build',
  () => {
    const pages = servedForThisFile('pages', EDITOR_BUILD)
    for (const check of EDITOR_CHECKS) it(check.name, () => check.run(pages.target))
  },
)
