// A flood costs no real lead: past the total ceiling, requests are held (stored, listed apart,
// never delivered) instead of refused, up to DEMO_HELD_LIMIT; a real visitor who comes
// meanwhile is told "sent" and their request waits with the rest; `npm run outbox` releases
// (then the worker sends) or erases them. Against a real app, a real SMTP server and webhook
// receiver, and the compiled `npm run outbox`; the cap also on two servers sharing PostgreSQL.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { refusals } from '../../src/contract/lead-server-text.js'
import { buildTestApp } from '../../testing/server/app-on-temporary-store.js'
import { DemoRequests, type FloodEpisode } from '../demo-requests/demo-requests.js'
import type { DeliveryConfig } from '../settings/config.js'
import { DeliveryWorker } from '../delivery/worker.js'
import { LARGEST_RECORD_BYTES } from './demo-request-check.js'
import { openLeadStore, type LeadStore, type StoredRequest } from '../store/lead-store.js'
import type { ServerLimits } from './limits.js'
import { OUTBOX_CLI_JS } from '../../testing/server/compiled-server.js'
import { startPeers, WEBHOOK_SECRET, type Peers } from '../../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { recordedLog } from '../../testing/server/recorded-log.js'

const run = promisify(execFile)
const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

interface Running {
  url: string
  dataDir: string
  store: LeadStore
  log: Record<string, unknown>[]
  episodes: FloodEpisode[]
  /** The floods told again as they grew tenfold. */
  grown: FloodEpisode[]
}

/** A server as main.ts makes one: its store, the channels given, their worker. */
async function start(
  limits: Partial<ServerLimits>,
  peers: Peers | null,
  { databaseUrl, full = false }: { databaseUrl?: string; full?: boolean } = {},
): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-held-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  let maxBytes = 1024 ** 3
  if (full) {
    // A store already at its OUTBOX_MAX_BYTES: made, measured, and opened again with that cap.
    const empty = await openLeadStore({ dataDir }, { maxBytes, largestRecordBytes: 0 })
    maxBytes = await empty.bytes()
    await empty.close()
  }
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  cleanups.push(() => store.close())
  const delivery: DeliveryConfig = {
    ...(peers && {
      email: { smtpUrl: peers.smtp.url, to: ['ventas@gaspre.mx'], from: 'avisos@gaspre.mx' },
      webhook: { url: peers.webhook.url, secret: WEBHOOK_SECRET },
    }),
    timeZone: 'America/Mexico_City',
    alertAfterMs: 600_000,
  }
  const worker = peers
    ? new DeliveryWorker(store, delivery, { pollMs: 50, firstBackoffMs: 50 })
    : null
  const episodes: FloodEpisode[] = []
  const grown: FloodEpisode[] = []
  const { stream, lines: log } = recordedLog()
  const demoRequests = DemoRequests.delivering(store, delivery, worker)
  // The episodes the intake tells, kept here instead of noticed to the sales team.
  vi.spyOn(demoRequests, 'floodBegan').mockImplementation((episode) => void episodes.push(episode))
  vi.spyOn(demoRequests, 'floodGrew').mockImplementation((episode) => void grown.push(episode))
  const app = buildTestApp({
    distDir: dist.dist,
    demoRequests,
    limits,
    logger: { level: 'info', stream },
  })
  // On a socket: each visitor is another client address (localAddress on 127.0.0.0/8).
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  worker?.start(app.log)
  cleanups.push(async () => {
    await app.close()
    await worker?.stop()
  })
  return { url, dataDir, store, log, episodes, grown }
}

/** `npm run outbox` on the server's store, as the sales team runs it. */
const outbox = (dataDir: string, ...args: string[]) =>
  run(process.execPath, [OUTBOX_CLI_JS, ...args], { env: { ...process.env, DATA_DIR: dataDir } })

async function all(store: LeadStore): Promise<StoredRequest[]> {
  const requests: StoredRequest[] = []
  for await (const request of store.requests({ oldestFirst: true })) requests.push(request)
  return requests
}

const events = (log: Record<string, unknown>[], event: string) =>
  log.filter((line) => line.event === event)

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

describe('a flood past the total ceiling', () => {
  it('sixty requests a minute from six addresses, each within its limit: those past the ceiling are held, not delivered, and a real visitor after them is held too', async () => {
    const peers = await startPeers(cleanups)
    const { smtp, webhook } = peers
    const server = await start({ totalLimitPerMinute: 20, heldLimit: 41 }, peers)
    const { url, dataDir, store, log } = server

    // Six addresses, ten requests each (the per-client limit), all at once.
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (address) => {
        const mine = []
        for (let n = 0; n < 10; n++) {
          const params = { ...DEMO_PARAMS, contact_number: `${address}${n}` }
          mine.push(await sendDemoRequest(url, params, { localAddress: `127.0.4.${address}` }))
        }
        return mine
      }),
    )
    // A bot is told what a person is told.
    expect(answers.flat().map((answer) => [answer.status, answer.text])).toEqual(
      Array.from({ length: 60 }, () => [200, 'OK']),
    )
    const visitor = { ...DEMO_PARAMS, user_name: 'Lucía Real', contact_number: '77777' }
    const visitorAnswer = await sendDemoRequest(url, visitor, { localAddress: '127.0.4.7' })
    expect([visitorAnswer.status, visitorAnswer.text]).toEqual([200, 'OK'])
    // The cap is full: only now is a request refused.
    const refused = await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.4.8' })
    expect(refused.status).toBe(429)
    expect(refused.text).toBe(refusals.busy)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.4.9' })).status).toBe(
      429,
    )

    // The twenty within the ceiling are delivered; the held ones are not, however long the
    // worker runs (it polls every 50 ms here).
    await expect
      .poll(() => [smtp.mails.length, webhook.received.length], { timeout: 30_000 })
      .toEqual([20, 20])
    await pause(500)
    expect([smtp.mails.length, webhook.received.length]).toEqual([20, 20])
    const stored = await all(store)
    expect(stored).toHaveLength(61)
    const held = stored.filter((request) => request.held)
    expect(held).toHaveLength(41)
    for (const request of held) {
      expect(request.deliveries.map((d) => [d.channel, d.state, d.attempts])).toEqual([
        ['email', 'held', 0],
        ['webhook', 'held', 0],
      ])
    }
    const lucia = held.find((request) => request.params.user_name === 'Lucía Real')!
    expect(lucia).toBeDefined()
    expect(await store.heldCount()).toBe(41)

    // One line and one notice for the episode, one line for the full hold.
    expect(server.episodes).toEqual([{ since: expect.any(Date), held: 1 }])
    // Told again at ten held, with the episode's start; 41 is short of the next tenfold.
    expect(server.grown).toEqual([{ since: server.episodes[0]!.since, held: 10 }])
    expect(events(log, 'demo-request-flood')).toEqual([
      expect.objectContaining({ level: 40, held: 1, totalLimitPerMinute: 20, heldLimit: 41 }),
    ])
    expect(events(log, 'demo-request-hold-full')).toHaveLength(1)
    expect(events(log, 'demo-request-held')).toHaveLength(41)

    // The sales team sees them apart.
    const listing = (await outbox(dataDir)).stdout
    expect(listing).toMatch(/^Atención: 41 solicitudes llegaron durante una avalancha/)
    expect(listing).toContain('20 solicitudes de demo en ')
    const heldSection = listing.indexOf('Retenidas (41), de la más reciente a la más antigua')
    expect(heldSection).toBeGreaterThan(0)
    expect(listing.indexOf('Lucía Real')).toBeGreaterThan(heldSection)
    expect(listing).toContain(
      'Envío por correo:   retenido: no se envía hasta que alguien lo libere',
    )
    const onlyHeld = (await outbox(dataDir, '--held')).stdout
    expect(onlyHeld).toMatch(/^41 solicitudes retenidas en /)
    expect(onlyHeld.match(/^#R\d+ /gm)).toHaveLength(41)
    expect(onlyHeld).toContain(`npm run outbox -- --release ${lucia.id}`)
    const json = (await outbox(dataDir, '--json')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; held: boolean; deliveries: unknown[] })
    expect(json.filter((line) => line.held)).toHaveLength(41)
    expect(json.find((line) => line.id === lucia.id)?.deliveries).toEqual([
      expect.objectContaining({ channel: 'email', state: 'held', nextAttemptAt: null }),
      expect.objectContaining({ channel: 'webhook', state: 'held', nextAttemptAt: null }),
    ])

    // The visitor's request is released on its own and sent; the rest wait.
    expect((await outbox(dataDir, '--release', lucia.id)).stdout).toBe(
      '1 solicitud liberada: el servidor la envía en unos segundos, como cualquier otra.\n',
    )
    await expect
      .poll(() => [smtp.mails.length, webhook.received.length], { timeout: 20_000 })
      .toEqual([21, 21])
    expect(smtp.mails.at(-1)?.subject).toContain('n.º 77777: Lucía Real')
    expect(webhook.received.at(-1)?.id).toBe(lucia.id)
    await expect(outbox(dataDir, '--release', lucia.id)).rejects.toMatchObject({
      code: 1,
      stderr: `outbox: la solicitud ${lucia.id} no está retenida\n`,
    })

    // Then all of them: each sent once.
    expect((await outbox(dataDir, '--release-held')).stdout).toBe(
      '40 solicitudes liberadas: el servidor las envía en unos segundos, como cualquier otra.\n',
    )
    await expect
      .poll(() => [smtp.mails.length, webhook.received.length], { timeout: 20_000 })
      .toEqual([61, 61])
    expect(new Set(webhook.received.map((posted) => posted.id)).size).toBe(61)
    expect(new Set(smtp.mails.map((mail) => mail.messageId)).size).toBe(61)
    expect(await store.heldCount()).toBe(0)
    expect((await outbox(dataDir, '--held')).stdout).toMatch(/^No hay solicitudes retenidas/)
  })

  it('held requests in a store with no channel are held too, and --erase-held erases them for good, on record', async () => {
    const { url, dataDir, store, episodes } = await start({ totalLimitPerMinute: 1 }, null)
    expect((await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.5.1' })).status).toBe(
      200,
    )
    for (const address of [2, 3, 4]) {
      const answer = await sendDemoRequest(url, DEMO_PARAMS, { localAddress: `127.0.5.${address}` })
      expect(answer.status).toBe(200)
    }
    expect(episodes).toEqual([{ since: expect.any(Date), held: 1 }])
    const json = (await outbox(dataDir, '--json')).stdout.trimEnd().split('\n')
    expect(
      json.map((line) => JSON.parse(line) as { held: boolean; deliveries: unknown[] }),
    ).toEqual(
      [false, true, true, true].map((held) => expect.objectContaining({ held, deliveries: [] })),
    )
    expect((await outbox(dataDir, '--held')).stdout).toContain(
      'Envío:              ninguno configurado: solo guardada',
    )

    expect((await outbox(dataDir, '--erase-held')).stdout).toBe(
      '3 solicitudes retenidas borradas para siempre.\n',
    )
    expect(await store.count()).toBe(1)
    expect(await store.heldCount()).toBe(0)
    const listing = (await outbox(dataDir)).stdout
    expect(listing).toMatch(/^1 solicitud de demo en /)
    expect(listing).not.toContain('Retenida')
    expect((await outbox(dataDir, '--erase-held')).stdout).toBe('No había solicitudes retenidas.\n')
    // Some of them may have been a person's: the erasure is on record, with no personal data.
    const erasures = (await outbox(dataDir, '--erasures')).stdout.trimEnd().split('\n')
    expect(erasures).toHaveLength(2)
    expect(erasures[1]).toMatch(
      /\) {2}por descarte de las retenidas en una avalancha: 3 solicitudes de demo, 0 envíos$/,
    )
  })

  it('DEMO_HELD_LIMIT=0 holds nothing: past the ceiling is refused, as before', async () => {
    const { url, store, log } = await start({ totalLimitPerMinute: 1, heldLimit: 0 }, null)
    expect((await sendDemoRequest(url, DEMO_PARAMS)).status).toBe(200)
    const refused = await sendDemoRequest(url, DEMO_PARAMS, { localAddress: '127.0.5.9' })
    expect([refused.status, refused.text]).toEqual([429, refusals.busy])
    expect(await store.count()).toBe(1)
    expect(events(log, 'demo-request-flood')).toEqual([])
  })

  it('a flood that meets a full store logs its first refusal whole, then counts the rest', async () => {
    const { url, log } = await start({ totalLimitPerMinute: 1 }, null, { full: true })
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, n) =>
        sendDemoRequest(url, DEMO_PARAMS, { localAddress: `127.0.5.${100 + n}` }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 21 }, () => 507))
    // The one within the ceiling, and the first of the flood.
    expect(events(log, 'demo-request-not-stored')).toHaveLength(2)
    expect(log.filter((line) => line.status === 507)).toHaveLength(2)
    await cleanups.pop()!() // the app closes: the summary still due is written
    expect(events(log, 'repeated')).toEqual([
      expect.objectContaining({ level: 50, kind: 'demo-request-held-not-stored', count: 19 }),
    ])
  })

  it('two servers on one PostgreSQL hold no more than DEMO_HELD_LIMIT between them', async () => {
    const databaseUrl = await freshDatabase()
    const limits = { totalLimitPerMinute: 1, heldLimit: 5 }
    const servers = [
      await start(limits, null, { databaseUrl }),
      await start(limits, null, { databaseUrl }),
    ]
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        sendDemoRequest(servers[n % 2]!.url, DEMO_PARAMS, { localAddress: `127.0.6.${n + 1}` }),
      ),
    )
    const statuses = answers.map((answer) => answer.status)
    // One within each server's own ceiling, five held between them, the rest refused.
    expect(statuses.filter((status) => status === 200)).toHaveLength(7)
    expect(statuses.filter((status) => status === 429)).toHaveLength(17)
    expect(await servers[0]!.store.heldCount()).toBe(5)
    expect(await servers[0]!.store.count()).toBe(7)
  })
})
