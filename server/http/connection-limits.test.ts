// One client cannot close the door for everyone: a flood of idle sockets from one address, with
// a visitor from another address (loopback answers on all of 127.0.0.0/8).
import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { clientKey } from './client-address.js'
import { SEND_PATH } from '../intake/demo-intake.js'
import { demoRequestJson } from '../../testing/server/demo-request.js'
import { fakeDistForThisFile } from '../../testing/server/per-file.js'
import { waitUntil } from '../../testing/wait-until.js'

const ATTACKER = '127.0.0.2'
const VISITOR = '127.0.0.3'
const FLOOD = 1_100
const PER_CLIENT = 16

const dist = fakeDistForThisFile()
let site: AppOnStore
let app: FastifyInstance
let port: number
const sockets: Socket[] = []

/** An HTTP request from a chosen loopback address. */
function requestFrom(
  localAddress: string,
  path: string,
  options: { method?: string; body?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress,
        method: options.method ?? 'GET',
        agent: false,
        timeout: 10_000,
        headers: options.body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('timeout', () => req.destroy(new Error(`timed out: ${path}`)))
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Opens a socket that never sends a byte and never closes its side by itself. */
const idleSocket = (localAddress: string): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: true })
    socket.on('error', () => undefined) // refused or reset: that is the point
    socket.once('connect', () => resolve(socket))
    socket.once('close', () => resolve(socket))
    sockets.push(socket)
  })

const serverConnections = (): Promise<number> =>
  new Promise((resolve, reject) =>
    app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  )

async function startApp(timeouts: { headers?: number; checkEvery?: number } = {}) {
  site = await appOnTemporaryStore({
    distDir: dist.dist,
    limits: { maxConnectionsPerClient: PER_CLIENT },
    timeouts,
  })
  app = site.app
  // On a socket: connections are what is limited, and inject opens none.
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  port = typeof address === 'object' && address !== null ? address.port : 0
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await site.close()
})

describe('fair connections', () => {
  it('while one address holds 1,100 idle sockets, a visitor from another gets the page and can send', async () => {
    await startApp()
    // Every socket of the flood reaches the server, which keeps only the attacker's share. (In
    // batches the size of a listen backlog, so the kernel drops no SYN to be retried later.)
    const attackerHolds = () => app.site.connections.open.get(ATTACKER) ?? 0
    for (let opened = 0; opened < FLOOD;) {
      const batch = Math.min(100, FLOOD - opened)
      await Promise.all(Array.from({ length: batch }, () => idleSocket(ATTACKER)))
      opened += batch
      await waitUntil(() => app.site.connections.refused + attackerHolds() === opened, {
        what: `the first ${opened} sockets of the flood are kept or refused`,
      })
    }
    expect(attackerHolds()).toBe(PER_CLIENT)
    expect(await serverConnections()).toBe(PER_CLIENT)

    expect(await requestFrom(VISITOR, '/')).toBe(200)
    expect(await requestFrom(VISITOR, SEND_PATH, { method: 'POST', body: demoRequestJson() })).toBe(
      200,
    )

    // Once the attacker lets go, nothing of the flood is left.
    for (const socket of sockets) socket.destroy()
    await waitUntil(async () => (await serverConnections()) === 0, {
      what: 'every connection is closed',
    })
    expect(app.site.connections.open.size).toBe(0)
  })

  it('a socket that sends nothing is destroyed at the headers timeout: no half-open slot stays', async () => {
    await startApp({ headers: 500, checkEvery: 100 })
    const silent = await idleSocket(ATTACKER)
    let answer = ''
    silent.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    expect(await serverConnections()).toBe(1)
    // The client never closes its side (allowHalfOpen), as a hostile one would not.
    await waitUntil(async () => (await serverConnections()) === 0, {
      what: 'the server lets the socket go',
    })
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(app.site.connections.open.size).toBe(0)
  })
})

describe('who a client is', () => {
  it('an IPv4 address is one client, however it is written', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7')
  })

  it('an IPv6 client is its /56, what one household is delegated, whatever /64 it picks', () => {
    const keys = [
      '2001:db8:1:200::1',
      '2001:db8:1:2ff:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0242:abcd::9',
      '2001:db8:1:2aa::1%eth0',
    ].map(clientKey)
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:200::/56']))
    expect(clientKey('2001:db8:1:300::1')).toBe('2001:db8:1:300::/56')
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:0::/56')
    expect(clientKey('::1')).toBe('0:0:0:0::/56')
  })
})
