// What keeps the intake honest under faults and abuse: it never answers 200 for a
// request it did not store (a full disk, an I/O error, a store at OUTBOX_MAX_BYTES), it limits
// floods and connection pile-ups, and its log never holds a visitor's personal data. The faults
// are made inside the store's own SQLite connection (testing/server/store-faults.ts).
import { rm } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { POSTED_PAGES, SEND_FORM_PATH, SEND_PATH } from './demo-intake.js'
import type { ServerLimits } from './limits.js'
import { MIN_FREE_BYTES } from '../store/capacity.js'
import {
  DEFAULT_SETTINGS,
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { makeFakeDist, type FakeDist } from '../../testing/server/fake-dist.js'
import { multipartBody } from '../../testing/server/demo-request.js'
import type { HttpResponse } from '../../testing/server/http.js'
import { StoreFaults } from '../../testing/server/store-faults.js'
import { waitUntil } from '../../testing/wait-until.js'
import { recordedLog, type RecordedLog } from '../../testing/server/recorded-log.js'

const VISITOR = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Norte',
  message: 'Quiero una demo.',
  contact_number: '48213',
}
const PERSONAL = [VISITOR.user_name, VISITOR.user_email, VISITOR.user_phone, '1234 5678']

const sendBody = (params: Record<string, string> = VISITOR) =>
  JSON.stringify({
    lib_version: '4.4.1',
    user_id: 'local-public-key',
    service_id: 'service_local',
    template_id: 'template_demo',
    template_params: params,
  })

let dist: FakeDist
let site: AppOnStore
let faults: StoreFaults
let log: RecordedLog
/** The bytes of a store that holds no request yet (its schema): OUTBOX_MAX_BYTES at this is full. */
let emptyStoreBytes: number

async function startApp(limits: Partial<ServerLimits> = {}): Promise<void> {
  faults = new StoreFaults()
  log = recordedLog()
  const { stream } = log
  site = await appOnTemporaryStore({
    distDir: dist.dist,
    limits,
    logger: { level: 'info', stream },
    storeOptions: faults.storeOptions,
  })
}

const send = (body = sendBody(), path = SEND_PATH) =>
  site.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

const sendForm = async (headers: Record<string, string> = {}): Promise<HttpResponse> => {
  const form = new FormData()
  for (const [name, value] of Object.entries(VISITOR)) form.append(name, value)
  form.append('service_id', 'service_local')
  form.append('template_id', 'template_demo')
  form.append('user_id', 'local-public-key')
  // Encoded by the platform, sent raw: fetch would rewrite Sec-Fetch-Mode.
  const { type, body } = await multipartBody(form)
  return site.request(SEND_FORM_PATH, {
    method: 'POST',
    headers: { 'content-type': type, ...headers },
    body,
  })
}
/** How a browser without scripts posts the form: a navigation. */
const NAVIGATION = { 'sec-fetch-mode': 'navigate', accept: 'text/html' }

const readyStatus = async (): Promise<number> => (await site.request('/readyz')).status
const storedCount = async (): Promise<number> => (await site.stored()).length

beforeAll(async () => {
  dist = await makeFakeDist()
  await startApp()
  emptyStoreBytes = await site.store.bytes()
  await site.close()
})
afterEach(async () => {
  await site.close()
})
afterAll(async () => {
  await rm(dist.root, { recursive: true, force: true })
})

describe('a request is stored whole or not at all', () => {
  it('a full disk: 507, nothing stored, readiness fails until there is room', async () => {
    await startApp()
    expect((await send()).status).toBe(200)
    expect(await readyStatus()).toBe(200)
    faults.fail('no-space')

    const full = await send()
    expect(full.status).toBe(507)
    expect(full.text).toBe(
      'The message could not be stored: the server is out of disk space. Please try again later.',
    )
    expect(await storedCount()).toBe(1)
    expect(await readyStatus()).toBe(503)
    expect((await site.request('/readyz')).text).toBe('{"status":"unavailable"}')
    expect((await send()).status).toBe(507)
    expect(await storedCount()).toBe(1)
    expect(log.lines.some((line) => line.event === 'not-ready')).toBe(true)

    faults.clear() // space freed
    expect(await readyStatus()).toBe(200)
    expect((await send()).status).toBe(200)
    expect(await storedCount()).toBe(2)
    expect(log.lines.some((line) => line.event === 'ready')).toBe(true)
  })

  it('readiness fails when free space runs low, before any request fails', async () => {
    await startApp()
    expect(await readyStatus()).toBe(200)
    faults.free = MIN_FREE_BYTES - 1
    expect(await readyStatus()).toBe(503)
    faults.free = Number.MAX_SAFE_INTEGER
    expect(await readyStatus()).toBe(200)
  })

  it('an I/O error: 500, nothing stored, and a probe finds the store writable again', async () => {
    await startApp()
    expect((await send()).status).toBe(200)
    faults.fail('io-error', 1)
    const failed = await send()
    expect(failed.status).toBe(500)
    expect(failed.text).toBe('The message could not be stored. Please try again.')
    expect(await storedCount()).toBe(1)
    // The probe write after the failure succeeds: the store is writable again.
    expect(await readyStatus()).toBe(200)
    expect((await send()).status).toBe(200)
    expect(await storedCount()).toBe(2)
  })
})

describe('limits', () => {
  it('a flood from one address meets 429 Too Many Requests after the default 10 a minute', async () => {
    await startApp()
    expect(DEFAULT_SETTINGS.rateLimitPerMinute).toBe(10)
    const answers = []
    for (let i = 0; i < 10; i++) answers.push((await send()).status)
    expect(answers).toEqual(Array.from({ length: 10 }, () => 200))
    const flood = await Promise.all(Array.from({ length: 20 }, () => send()))
    for (const res of flood) {
      expect(res.status).toBe(429)
      expect(res.text).toBe('Too Many Requests')
      expect(res.headers['cache-control']).toBe('no-store')
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }
    // Both sending endpoints share the budget.
    const form = await sendForm()
    expect(form.status).toBe(429)
    expect(form.text).toBe('Too Many Requests')
    expect(await storedCount()).toBe(10)
    // Pages are never limited.
    expect((await site.request('/healthz')).status).toBe(200)
  })

  it('DEMO_RATE_LIMIT_PER_MINUTE lowers or raises the limit', async () => {
    await startApp({ rateLimitPerMinute: 2 })
    expect((await send()).status).toBe(200)
    expect((await sendForm()).status).toBe(200)
    expect((await send()).status).toBe(429)
  })

  it('past OUTBOX_MAX_BYTES a request gets 507 with one sentence, and the log says why', async () => {
    // Room for a few requests past the schema; the store refuses the one that would not fit.
    await startApp({ outboxMaxBytes: emptyStoreBytes + 4 * 4096, rateLimitPerMinute: 1000 })
    let accepted = 0
    let full: HttpResponse | null = null
    for (let i = 0; i < 200 && full === null; i++) {
      const res = await send()
      if (res.status === 200) accepted++
      else full = res
    }
    expect(accepted).toBeGreaterThan(0)
    expect(full?.status).toBe(507)
    expect(full?.text).toBe(
      'The message could not be stored: the store is full. Please try again later.',
    )
    expect(await storedCount()).toBe(accepted)
    const refusal = log.lines.find((line) => line.event === 'demo-request-not-stored')
    expect(refusal).toMatchObject({ level: 50, failure: 'full', contact: '48213' })
    expect(String(refusal?.msg)).toContain(`(OUTBOX_MAX_BYTES`)
  })

  it('past MAX_CONNECTIONS the oldest idle connection makes room for a newcomer; with all busy it is refused', async () => {
    await startApp({ maxConnections: 2 })
    // On a socket: connections are what is limited, and inject opens none.
    const { app } = site
    const { port } = new URL(await app.listen({ port: 0, host: '127.0.0.1' }))
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => resolve(socket))
        socket.once('error', reject)
      })
    const answerTo = (socket: Socket, raw: string): Promise<string> =>
      new Promise((resolve) => {
        let data = ''
        socket.on('data', (chunk: Buffer) => (data += chunk.toString()))
        socket.on('error', () => undefined)
        socket.on('close', () => resolve(data))
        socket.write(raw)
      })
    const closed = (socket: Socket): Promise<void> =>
      new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', resolve)))
    const GET = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'

    const [oldest, newer] = [await open(), await open()]
    oldest.on('error', () => undefined)
    await waitUntil(() => app.site.connections.open.get('127.0.0.1') === 2, {
      what: 'the server holds both connections',
    })
    expect(await answerTo(await open(), GET)).toMatch(/^HTTP\/1\.1 200 /)
    await closed(oldest)
    expect(newer.destroyed).toBe(false)
    expect(app.site.connections.evicted).toBe(1)
    newer.destroy()

    // Two requests whose bodies are still coming: both connections are busy.
    const POST = `POST ${SEND_PATH} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`
    const busy = [await open(), await open()]
    for (const socket of busy) socket.write(POST)
    await waitUntil(() => app.site.connections.busy === 2, {
      what: 'both connections wait for the rest of a body',
    })
    expect(await answerTo(await open(), GET)).toBe('')
    expect(busy.every((socket) => !socket.destroyed)).toBe(true)
    for (const socket of busy) socket.destroy()
  })
})

describe('a form posted without scripts', () => {
  it('that cannot be stored, or is over the limit, ends on the "not sent" section, never "sent"', async () => {
    await startApp({ rateLimitPerMinute: 4 })
    const sent = await sendForm(NAVIGATION)
    expect(sent.status).toBe(303)
    expect(sent.headers.location).toBe(POSTED_PAGES.sent)
    faults.fail('no-space')
    const noSpace = await sendForm(NAVIGATION)
    expect(noSpace.status).toBe(303)
    expect(noSpace.headers.location).toBe(POSTED_PAGES.failed)
    faults.clear()
    expect((await sendForm(NAVIGATION)).headers.location).toBe(POSTED_PAGES.sent)
    faults.fail('io-error', 1)
    expect((await sendForm(NAVIGATION)).headers.location).toBe(POSTED_PAGES.failed)
    const limited = await sendForm(NAVIGATION)
    expect(limited.status).toBe(303)
    expect(limited.headers.location).toBe(POSTED_PAGES.failed)
    expect(await storedCount()).toBe(2)
  })

  it('to a store at OUTBOX_MAX_BYTES ends on the "not sent" section', async () => {
    await startApp({ outboxMaxBytes: emptyStoreBytes })
    const full = await sendForm(NAVIGATION)
    expect(full.status).toBe(303)
    expect(full.headers.location).toBe(POSTED_PAGES.failed)
    expect(await storedCount()).toBe(0)
  })
})

describe('the log', () => {
  it("holds the request id and contact number, never the visitor's name, e-mail or phone", async () => {
    await startApp({ rateLimitPerMinute: 5 })
    expect((await send()).status).toBe(200)
    faults.fail('io-error', 1)
    expect((await send()).status).toBe(500)
    expect((await sendForm()).status).toBe(200)
    const [first] = await site.stored()
    // Error paths too: bad JSON carrying the address, a full disk, the rate limit.
    expect((await send(`{"template_params":{"user_email":"${VISITOR.user_email}"`)).status).toBe(
      400,
    )
    faults.fail('no-space', 1)
    expect((await send()).status).toBe(507)
    expect((await send()).status).toBe(429)

    const stored = log.lines.filter((line) => line.event === 'demo-request')
    expect(stored).toHaveLength(2)
    expect(stored[0]).toMatchObject({ id: first?.id, contact: '48213' })
    expect(stored[0]?.msg).toBe(`demo-request ${first?.id} stored (contact number 48213)`)
    for (const personal of PERSONAL) expect(log.text).not.toContain(personal)
    expect(log.text).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/)
  })
})
