// Floods that cost an attacker kilobytes, each tried as the attack it is named after, on loopback
// (any of 127.0.0.0/8 is another client to the server). The server must keep its memory, open
// files and log bounded, keep a place for the visitor who comes next, and deliver no more than
// its ceiling, whatever the attacker sends.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { refusals } from '../../src/contract/lead-server-text.js'
import { SEND_PATH } from './demo-intake.js'
import type { LeadStore, StoredRequest } from '../store/lead-store.js'
import { MAX_LOGGED_CHARS } from '../text/log-bounds.js'
import {
  DEFAULT_SETTINGS,
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { DEMO_PARAMS, demoRequestJson, sendDemoRequest } from '../../testing/server/demo-request.js'
import { OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'
import { fakeDistForThisFile } from '../../testing/server/per-file.js'
import { rawRequest, request } from '../../testing/server/http.js'
import { assertSecurityHeaders } from '../../testing/server/serving-checks.js'
import { MAIN_JS } from '../../testing/server/compiled-server.js'
import { startSite, type RunningSite } from '../../testing/site.js'
import { waitUntil } from '../../testing/wait-until.js'
import { recordedLog, type RecordedLog } from '../../testing/server/recorded-log.js'

const dist = fakeDistForThisFile()
/** The spawned server's DATA_DIR. */
let dataDir: string | undefined
let site: AppOnStore | null = null
let app: FastifyInstance | null = null
let spawned: RunningSite | null = null
let url: string
let store: LeadStore | null = null
let log: RecordedLog
const sockets: Socket[] = []

const MIB = 1024 ** 2

/**
 * The app on a store of its own (no channel: requests are only stored), on a socket: a flood is
 * made of connections and client addresses. A test of what one request holds passes
 * `listen: false` and sends in-process (inject).
 */
async function startApp({ listen = true } = {}): Promise<void> {
  log = recordedLog()
  const { stream } = log
  site = await appOnTemporaryStore({ distDir: dist.dist, logger: { level: 'info', stream } })
  app = site.app
  store = site.store
  if (listen) url = await app.listen({ port: 0, host: '127.0.0.1' })
}

/** Runs `count` sends, `atOnce` at a time. */
async function inParallel<T>(count: number, atOnce: number, send: (n: number) => Promise<T>) {
  const results: T[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < count) results.push(await send(next++))
    }),
  )
  return results
}

/** A socket from `localAddress` that sends `bytes` and then neither reads nor closes. */
const socketFrom = (localAddress: string, bytes?: string): Promise<Socket> =>
  new Promise((resolve) => {
    const { port } = new URL(url)
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress })
    socket.on('error', () => undefined) // closed or reset by the server: that is the point
    socket.once('connect', () => {
      if (bytes !== undefined) socket.write(bytes)
      socket.pause()
      resolve(socket)
    })
    socket.once('close', () => resolve(socket))
    sockets.push(socket)
  })

/** The memory and open files of a process, read from /proc as an operator would. */
function processFacts(pid: number): { rssBytes: number; peakRssBytes: number; openFiles: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024
  return {
    rssBytes: kib('VmRSS'),
    peakRssBytes: kib('VmHWM'),
    openFiles: readdirSync(`/proc/${pid}/fd`).length,
  }
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  await site?.close()
  site = null
  app = null
  store = null
  if (spawned !== null && spawned.child.exitCode === null) {
    spawned.child.kill('SIGKILL')
    await spawned.exited
  }
  spawned = null
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  dataDir = undefined
})

describe('floods', () => {
  it('the pipelining flood: 4 sockets × 5,000 pipelined GET / that are never read keep memory and open files bounded, and a visitor is served', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-floods-'))
    spawned = await startSite({
      host: 'node',
      server: MAIN_JS,
      build: { dir: dist.dist },
      env: { DATA_DIR: dataDir },
    })
    url = spawned.origin
    const pid = spawned.child.pid!
    // Warm: the server has served a page and a send once, as it will have in production.
    expect((await request(url, '/')).status).toBe(200)
    expect((await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.0.9' })).status).toBe(
      200,
    )
    const before = processFacts(pid)

    const pipelined = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: br, gzip\r\n\r\n'
    expect(Buffer.byteLength(pipelined.repeat(5_000)) * 4).toBeLessThan(1.5 * MIB)
    await Promise.all([1, 2, 3, 4].map(() => socketFrom('127.0.0.2', pipelined.repeat(5_000))))

    // While the flood sits there, a visitor from another address is served, and the server
    // holds no more files than a few per connection.
    let mostOpenFiles = before.openFiles
    for (let sample = 0; sample < 40; sample++) {
      mostOpenFiles = Math.max(mostOpenFiles, processFacts(pid).openFiles)
      await new Promise((wait) => setTimeout(wait, 50))
    }
    const visitor = await request(url, '/healthz', { localAddress: '127.0.0.3' })
    expect(visitor.status).toBe(200)
    const during = processFacts(pid)
    expect(mostOpenFiles - before.openFiles).toBeLessThan(40)
    expect(during.peakRssBytes - before.rssBytes).toBeLessThan(64 * MIB)

    // Once the attacker lets go, nothing of the flood is left open.
    for (const socket of sockets) socket.destroy()
    await waitUntil(() => processFacts(pid).openFiles <= before.openFiles + 2, {
      what: 'the server closes what the flood opened',
    })
  })

  it('17 addresses × 64 idle sockets (each within its own share) leave a place for a visitor from an 18th', async () => {
    await startApp()
    const { maxConnections, maxConnectionsPerClient } = DEFAULT_SETTINGS
    expect(17 * maxConnectionsPerClient).toBeGreaterThan(maxConnections)
    const connections = app!.site.connections
    const held = (): number => [...connections.open.values()].reduce((sum, n) => sum + n, 0)
    let opened = 0
    for (let address = 1; address <= 17; address++) {
      // Each address opens its share at once, as fast as the attacker can.
      await Promise.all(
        Array.from({ length: maxConnectionsPerClient }, () => socketFrom(`127.0.1.${address}`)),
      )
      opened += maxConnectionsPerClient
      await waitUntil(() => held() + connections.refused + connections.evicted === opened, {
        what: `the server has seen the first ${opened} sockets`,
      })
    }
    expect(held()).toBe(maxConnections)

    const page = await request(url, '/', { localAddress: '127.0.1.18' })
    expect(page.status).toBe(200)
    const sent = await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.1.18' })
    expect(sent.status).toBe(200)
    expect(held()).toBeLessThanOrEqual(maxConnections)
  })

  it('256 addresses, each at its own limit: the ceiling is delivered, DEMO_HELD_LIMIT held, only the rest refused', async () => {
    await startApp()
    const { rateLimitPerMinute, totalLimitPerMinute, heldLimit } = DEFAULT_SETTINGS
    expect([totalLimitPerMinute, heldLimit]).toEqual([60, 1000])
    const began = Date.now()
    const statuses: number[] = []
    const busyAnswers = new Set<string>()
    // 16 addresses at a time, each sending its whole share one after another.
    for (let group = 0; group < 256; group += 16) {
      await Promise.all(
        Array.from({ length: 16 }, async (_, index) => {
          const localAddress = `127.0.2.${group + index}`
          for (let sent = 0; sent < rateLimitPerMinute; sent++) {
            const answer = await sendDemoRequest(url, DEMO_PARAMS, { localAddress })
            statuses.push(answer.status)
            if (answer.status === 429) busyAnswers.add(answer.text)
          }
        }),
      )
    }
    // The ceiling counts per minute: a very slow machine may have started a second one.
    const minutes = 1 + Math.floor((Date.now() - began) / 60_000)
    const stored: StoredRequest[] = []
    for await (const request of store!.requests()) stored.push(request)
    const held = stored.filter((request) => request.held).length
    const delivered = stored.length - held
    expect(statuses).toHaveLength(2_560)
    expect(stored).toHaveLength(statuses.filter((status) => status === 200).length)
    expect(held).toBe(heldLimit)
    expect(delivered).toBeGreaterThanOrEqual(totalLimitPerMinute)
    expect(delivered).toBeLessThanOrEqual(totalLimitPerMinute * minutes)
    expect(statuses.filter((status) => status === 429)).toHaveLength(2_560 - stored.length)
    expect([...busyAnswers]).toEqual([refusals.busy])
    // One flood, one full hold: said once each; the refusals in a line, then a summary.
    expect(log.lines.filter((line) => line.event === 'demo-request-flood')).toHaveLength(1)
    expect(log.lines.filter((line) => line.event === 'demo-request-hold-full')).toHaveLength(1)
    expect(log.lines.filter((line) => line.event === 'demo-request-busy')).toHaveLength(1)
    expect(log.lines.filter((line) => line.status === 429)).toHaveLength(1)
    await app!.close()
    app = null
    const summaries = log.lines.filter((line) => line.kind === 'demo-request-busy')
    expect(summaries.reduce((sum, line) => sum + Number(line.count), 0)).toBe(
      2_560 - stored.length - 1,
    )
  })
})

describe('the log under a flood', () => {
  it('2,000 cross-site posts with an 8 KB Origin, and refusals of every other kind, grow it by lines, not megabytes', async () => {
    await startApp()
    const before = log.bytes
    const origin = `https://${'a'.repeat(8 * 1024)}.example`
    const agent = new Agent({ keepAlive: true, maxSockets: 16 })
    const crossSite = await inParallel(2_000, 16, () =>
      request(url, SEND_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: demoRequestJson(),
        agent,
      }),
    )
    agent.destroy()
    expect(crossSite.every((answer) => answer.status === 403)).toBe(true)
    // One client past its rate limit, bots filling the trap, malformed posts, 8 KB paths.
    const limited = await inParallel(40, 1, () =>
      sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.3.1' }),
    )
    expect(limited.filter((answer) => answer.status === 429)).toHaveLength(30)
    const bots = await inParallel(50, 5, (n) =>
      sendDemoRequest(
        url,
        { ...DEMO_PARAMS, website: 'https://spam.example' },
        { localAddress: `127.0.3.${10 + (n % 5)}` },
      ),
    )
    expect(bots.every((answer) => answer.status === 200)).toBe(true)
    const malformed = await inParallel(40, 5, (n) =>
      request(url, SEND_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...JSON.parse(demoRequestJson()), template_params: 5 }),
        localAddress: `127.0.3.${20 + (n % 5)}`,
      }),
    )
    expect(malformed.every((answer) => answer.status === 400)).toBe(true)
    const longPath = `/${'p'.repeat(8 * 1024)}`
    for (let n = 0; n < 5; n++) await request(url, longPath)
    await app!.close() // writes the summaries still due
    app = null

    expect(log.bytes - before).toBeLessThan(64 * 1024)
    // Each refusal logged whole once, its value cut, then counted in one summary.
    const [first, ...more] = log.lines.filter((line) => line.event === 'demo-request-cross-site')
    expect(more).toEqual([])
    expect(first?.origin).toBe(
      `${origin.slice(0, MAX_LOGGED_CHARS)}…[${origin.length - MAX_LOGGED_CHARS} more characters]`,
    )
    const counted = Object.fromEntries(
      log.lines.filter((line) => line.event === 'repeated').map((line) => [line.kind, line.count]),
    )
    expect(counted).toEqual({
      'demo-request-cross-site': 1_999,
      'demo-request-rate-limited': 29,
      'demo-request-bot': 49,
      [`POST ${SEND_PATH} 400`]: 39,
    })
    const pathLines = log.lines.filter((line) => String(line.url).startsWith('/ppp'))
    expect(pathLines).toHaveLength(5)
    for (const line of pathLines) expect(String(line.url).length).toBeLessThan(400)
  })
})

describe('text every reader can take', () => {
  it.each([
    [
      'U+FFFF in a name',
      { user_name: 'Ana\uffffLópez' },
      refusals.forbiddenCharacters('user_name'),
    ],
    [
      'U+FFFE in a group',
      { user_group: '\ufffeGrupo' },
      refusals.forbiddenCharacters('user_group'),
    ],
    ['U+FDD0 in a message', { message: 'Hola \ufdd0' }, refusals.forbiddenCharacters('message')],
    [
      'U+10FFFF in a name',
      { user_name: 'Ana \u{10ffff}' },
      refusals.forbiddenCharacters('user_name'),
    ],
    [
      'a name of a zero-width space only',
      { user_name: '\u200b' },
      refusals.forbiddenCharacters('user_name'),
    ],
    [
      'a group of a byte-order mark and spaces',
      { user_group: ' \ufeff ' },
      refusals.missing(['user_group']),
    ],
    [
      'a message of direction marks only',
      { message: '\u200e\u200f' },
      refusals.forbiddenCharacters('message'),
    ],
    [
      'a name of tag characters only',
      { user_name: '\u{e0041}\u{e0042}' },
      refusals.forbiddenCharacters('user_name'),
    ],
    ['a phone as a JSON number', { user_phone: 5215512345678 }, refusals.notText],
    ['a contact number as a JSON number', { contact_number: 4821 }, refusals.notText],
    ['a group as true', { user_group: true }, refusals.notText],
  ])(
    '%s is refused with a 400 and a Spanish sentence, and nothing is stored',
    async (_name, change, sentence) => {
      await startApp({ listen: false })
      const answer = await sendDemoRequest(site!.request, {
        ...DEMO_PARAMS,
        contact_number: '731',
        ...change,
      })
      expect(answer.status).toBe(400)
      expect(answer.text).toBe(sentence)
      expect(await site!.stored()).toEqual([])
    },
  )
})

it('a JSON number past 2^53 is refused, never stored with digits lost', async () => {
  await startApp({ listen: false })
  // Written by hand: JavaScript itself could not hold this number to write it.
  const body = demoRequestJson(DEMO_PARAMS).replace(
    /"user_phone":"[^"]*"/,
    '"user_phone":12345678901234567890',
  )
  expect(body).toContain('"user_phone":12345678901234567890,')
  const answer = await site!.request(SEND_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  expect(answer.status).toBe(400)
  expect(answer.text).toBe(refusals.notText)
  expect(await site!.stored()).toEqual([])
})

describe('every answer under the same rules', () => {
  const headersOf = (raw: string): Record<string, string> =>
    Object.fromEntries(
      raw
        .split('\r\n\r\n')[0]!
        .split('\r\n')
        .slice(1)
        .map((line) => {
          const colon = line.indexOf(':')
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
        }),
    )

  it.each([
    ['two Host headers', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n', 400],
    ['no Host header', 'GET / HTTP/1.1\r\n\r\n', 400],
    [
      'an Expect the server does not know',
      'GET / HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n',
      417,
    ],
    [
      'a precompressed copy asked for by its path',
      'GET /index.html.br HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
    [
      'a gzip copy asked for by its path',
      'GET /tyc.html.gz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
    ],
  ])('%s: the answer carries the security headers', async (_name, raw, status) => {
    await startApp()
    const answer = await rawRequest(url, raw)
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
    const headers = headersOf(answer)
    assertSecurityHeaders(
      { status, headers, body: Buffer.alloc(0), text: '' },
      OWN_SERVER_BUILD,
      'page',
    )
  })
})
