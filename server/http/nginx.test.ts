// deploy/nginx.conf served by the real nginx, checked with the same rules as the Node server.
import { chmod, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NGINX_BIN, nginxInstalled } from '../../testing/server/nginx.js'
import { startSite, type RunningSite } from '../../testing/site.js'
import {
  EDITOR_BUILD,
  OWN_SERVER_BUILD,
  SECRET_MARKER,
  makeFakeDist,
  type FakeDist,
} from '../../testing/server/fake-dist.js'
import {
  EDITOR_CHECKS,
  SERVING_CHECKS,
  type ServingTarget,
} from '../../testing/server/serving-checks.js'

const installed = nginxInstalled()
const missing = `${NGINX_BIN} not found: install it with apt-get install -y nginx-light`
// In CI a missing nginx is a failure, never a quiet skip; on a workstation it is a warning.
const required = process.env.CI === 'true'
if (!installed && !required) console.warn(`Skipping the nginx tests: ${missing}`)

describe.runIf(required)('nginx in CI', () => {
  it('is installed, so the static-host rules are checked against it', () => {
    expect(installed, missing).toBe(true)
  })
})

describe.skipIf(!installed)(
  'nginx with deploy/nginx.conf: the serving rules shared with Node',
  () => {
    let dist: FakeDist
    let nginx: RunningSite
    let target: ServingTarget

    beforeAll(async () => {
      dist = await makeFakeDist()
      await chmod(dist.root, 0o755) // nginx's workers run unprivileged
      nginx = await startSite({ host: 'nginx', build: { dir: dist.dist } })
      // The traversal checks look for this file just outside the served root.
      await writeFile(join(nginx.workDir!, 'secret.txt'), `${SECRET_MARKER}\n`)
      target = { url: nginx.origin, dist, build: OWN_SERVER_BUILD, brotli: false }
    })

    afterAll(async () => {
      await nginx?.stop()
      if (dist) await rm(dist.root, { recursive: true, force: true })
    })

    for (const check of SERVING_CHECKS) it(check.name, () => check.run(target))
  },
)

describe.skipIf(!installed)(
  'nginx with deploy/nginx.conf and the content editor in the build',
  () => {
    let dist: FakeDist
    let nginx: RunningSite
    let target: ServingTarget
    beforeAll(async () => {
      dist = await makeFakeDist(EDITOR_BUILD)
      await chmod(dist.root, 0o755)
      nginx = await startSite({ host: 'nginx', build: { dir: dist.dist } })
      target = { url: nginx.origin, dist, build: EDITOR_BUILD, brotli: false }
    })
    afterAll(async () => {
      await nginx?.stop()
      if (dist) await rm(dist.root, { recursive: true, force: true })
    })
    for (const check of EDITOR_CHECKS) it(check.name, () => check.run(target))
  },
)
