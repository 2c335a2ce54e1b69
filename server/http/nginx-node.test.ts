// The Node server behind the project's nginx configuration (deploy/nginx-node.conf): each
// visitor keeps a budget of their own, and no header they send can buy them another.
import { chmod, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../app.js'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { SEND_PATH } from '../intake/demo-intake.js'
import { NGINX_NODE_CONF, nginxInstalled } from '../../testing/server/nginx.js'
import { startSite, type RunningSite } from '../../testing/site.js'
import { DEMO_PARAMS, demoRequestJson } from '../../testing/server/demo-request.js'
import { makeFakeDist, type FakeDist } from '../../testing/server/fake-dist.js'

const BUDGET = 3
const installed = nginxInstalled()
// A missing nginx fails in CI (nginx.test.ts says so); here it only skips.
const ALICE = '127.0.0.2'
const BRUNO = '127.0.0.3'

let dist: FakeDist
let site: AppOnStore | undefined
let app: FastifyInstance
let nginx: RunningSite

/** Sends one demo request through nginx from a chosen loopback address. */
function sendFrom(localAddress: string, headers: Record<string, string> = {}): Promise<number> {
  const { hostname, port } = new URL(nginx.origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path: SEND_PATH,
        method: 'POST',
        localAddress,
        agent: false,
        timeout: 10_000,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(demoRequestJson({ ...DEMO_PARAMS, user_email: `${localAddress}@grupo.mx` }))
  })
}

async function startBehindNginx(trustProxy: AppOptions['trustProxy']): Promise<void> {
  site = await appOnTemporaryStore({
    distDir: dist.dist,
    trustProxy,
    limits: { rateLimitPerMinute: BUDGET },
  })
  app = site.app
  // On a socket: nginx is the client, and the addresses it forwards are what is tested.
  const upstream = await app.listen({ port: 0, host: '127.0.0.1' })
  nginx = await startSite({
    host: 'nginx',
    build: { dir: dist.dist },
    config: NGINX_NODE_CONF,
    upstream,
  })
}

const budgetOf = async (address: string, headers: Record<string, string> = {}) => {
  const answers: number[] = []
  for (let i = 0; i <= BUDGET; i++) answers.push(await sendFrom(address, headers))
  return answers
}
const SPENT = [...Array<number>(BUDGET).fill(200), 429]

beforeAll(async () => {
  dist = await makeFakeDist()
  await chmod(dist.root, 0o755)
})
afterEach(async () => {
  await nginx?.stop()
  await site?.close()
  site = undefined
})
afterAll(async () => {
  await rm(dist.root, { recursive: true, force: true })
})

describe.skipIf(!installed)('behind nginx (deploy/nginx-node.conf)', () => {
  it('with TRUST_PROXY=127.0.0.1, two visitors with different addresses get separate budgets', async () => {
    await startBehindNginx(['127.0.0.1'])
    expect(await budgetOf(ALICE)).toEqual(SPENT)
    expect(await budgetOf(BRUNO)).toEqual(SPENT)
  })

  it('a forged X-Forwarded-For buys no new budget: nginx puts the address it saw last', async () => {
    await startBehindNginx(['127.0.0.1'])
    expect(await budgetOf(ALICE)).toEqual(SPENT)
    const forged = await sendFrom(ALICE, { 'x-forwarded-for': '198.51.100.7' })
    expect(forged).toBe(429)
  })

  it('with TRUST_PROXY unset, every visitor shares the proxy’s one budget (the warning in docs/production.md)', async () => {
    await startBehindNginx(false)
    expect(await budgetOf(ALICE)).toEqual(SPENT)
    expect(await sendFrom(BRUNO)).toBe(429)
  })
})
