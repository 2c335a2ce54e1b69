// deploy/nginx.conf served by the real nginx, checked with the same rules as the Node server.
import { describe, expect, it } from 'vitest'
import { EDITOR_BUILD, OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'
import { NGINX_BIN, nginxInstalled } from '../../testing/server/nginx.js'
import { EDITOR_CHECKS, SERVING_CHECKS } from '../../testing/server/serving-checks.js'
import { servedForThisFile } from '../../testing/server/static-host.js'

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
    const nginx = servedForThisFile('nginx', OWN_SERVER_BUILD)
    for (const check of SERVING_CHECKS) it(check.name, () => check.run(nginx.target))
  },
)

describe.skipIf(!installed)(
  'nginx with deploy/nginx.conf and the content editor in the build',
  () => {
    const nginx = servedForThisFile('nginx', EDITOR_BUILD)
    for (const check of EDITOR_CHECKS) it(check.name, () => check.run(nginx.target))
  },
)
