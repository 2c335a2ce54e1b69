// The WhatsApp channel against a stand-in of the Cloud API (testing/server/whatsapp-cloud.ts)
// that checks the path, the bearer token, the template body and the numbers, answers `wamid.`
// ids, and posts signed status callbacks: each request reaches one rep of its territory in turn,
// across a restart and with two servers on one PostgreSQL; a message read before its deadline
// stops there, one unread goes to the next rep with one mail; outside working hours nothing
// escalates until they begin (the escalation's clock is injected, nothing sleeps); a forged
// status changes nothing; an expired token holds the channel and loses nothing. Each of Meta's
// documented errors stays with what it names: a rep the business blocked (130403) or who cannot
// receive (131026) is skipped, a rep's pair rate limit (131056) holds that request alone, a
// 131047 to a template moves nobody; a batch of statuses of up to Meta's 3 MB is taken, and a
// status posted twice is kept once.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fakeDistForThisFile, undoneAfterEach } from '../../../testing/server/per-file.js'
import {
  startSmtpPeer,
  startWebhookPeer,
  type SmtpPeer,
} from '../../../testing/server/delivery-peers.js'
import {
  ROUTES,
  settled,
  startDelivery,
  type DeliverySetup,
  type RunningDelivery,
} from '../../../testing/server/delivery-harness.js'
import { sendDemoRequest } from '../../../testing/server/demo-request.js'
import { request as httpRequest } from '../../../testing/server/http.js'
import { freshDatabase } from '../../../testing/server/postgres.js'
import {
  type CloudApiStandIn,
  type CloudStatus,
  STAND_IN_ENV,
  startCloudApi,
  VERIFY_TOKEN,
} from '../../../testing/server/whatsapp-cloud.js'
import type { StoredRequest } from '../../store/lead-store.js'
import { asJson, formatRecord } from '../../cli/listing.js'
import { MAIN_JS } from '../../../testing/server/compiled-server.js'
import { rawDatabase, storedRequests } from '../../../testing/server/store.js'
import { spawnSite, startSite } from '../../../testing/site.js'
import { WHATSAPP_WEBHOOK_PATH } from './status-webhook.js'

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

const MEXICO = { user_phone: '55 1234 5678' }
const SPAIN = { user_phone: '612 345 678' }

const VISITOR = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_group: 'Grupo Norte',
  message: 'Tenemos 12 estaciones en Monterrey y queremos ver precios de la competencia.',
}

const MINUTE = 60_000

interface World {
  cloud: CloudApiStandIn
  smtp: SmtpPeer
  /** The escalation's clock: the tests move it, nothing sleeps. */
  clock: { now: number }
}

async function world(): Promise<World> {
  const cloud = await startCloudApi()
  const smtp = await startSmtpPeer()
  cleanups.push(
    () => cloud.close(),
    () => smtp.close(),
  )
  return { cloud, smtp, clock: { now: Date.UTC(2026, 10, 25, 17, 0) } }
}

type ListeningDelivery = RunningDelivery & { url: string }

async function server(
  { cloud, smtp, clock }: World,
  setup: Partial<DeliverySetup> & { workingHours?: string; routes?: string } = {},
): Promise<ListeningDelivery> {
  const { workingHours, routes, ...rest } = setup
  const running = await startDelivery({
    kind: 'sqlite',
    smtpUrl: smtp.url,
    ...rest,
    whatsapp: {
      apiUrl: cloud.url,
      routes: routes ?? ROUTES,
      ...(workingHours !== undefined && { workingHours }),
    },
    worker: { pollMs: 50, firstBackoffMs: 50, now: () => clock.now, ...rest.worker },
    dist: dist.dist,
  })
  cleanups.push(() => running.close())
  // On a socket: the Cloud API stand-in posts its status webhooks to the server, as Meta does.
  return Object.assign(running, { url: await running.app.listen({ port: 0, host: '127.0.0.1' }) })
}

let contact = 100
async function send(running: RunningDelivery, params: Record<string, string>) {
  const sent = await sendDemoRequest(running.request, {
    ...VISITOR,
    contact_number: String(contact++),
    ...params,
  })
  expect(sent.status).toBe(200)
}

/**
 * Two requests from Mexico, then one from Spain: the second Mexican rep (whose turn the second
 * is) and the Spanish rep get theirs, whatever happens to the first.
 */
async function twoFromMexicoOneFromSpain(peers: World, running: RunningDelivery): Promise<void> {
  await send(running, MEXICO)
  await send(running, MEXICO)
  await send(running, SPAIN)
  await expect
    .poll(() => recipients(peers.cloud).sort(), { timeout: 10_000 })
    .toEqual(['+34600111222', '+5215522222222'])
}

/**
 * Sends one request and waits until its WhatsApp message went and its id is stored, which is
 * once the Cloud API's answer is read: statuses name it. The message's id.
 */
async function sentAndStored(
  peers: World,
  running: RunningDelivery,
  params: Record<string, string>,
): Promise<string> {
  await send(running, params)
  await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(1)
  await settled(running)
  return peers.cloud.messages[0]!.wamid
}

/**
 * The messages in the order their requests were stored (by contact number, which each send
 * counts up), each request's own in the order they came: several go out side by side, so the
 * order they reach the stand-in is not the order of the turns.
 */
const inTurnOrder = (cloud: CloudApiStandIn) =>
  [...cloud.messages].sort((a, b) => Number(a.parameters[3]) - Number(b.parameters[3]))

const recipients = (cloud: CloudApiStandIn) => inTurnOrder(cloud).map((message) => `+${message.to}`)

const webhookUrl = (running: ListeningDelivery) => `${running.url}${WHATSAPP_WEBHOOK_PATH}`

const seconds = (ms: number) => Math.floor(ms / 1000)

const whatsappOf = (request: StoredRequest) => request.whatsapp!

/** The mails about unread messages (not the requests' own). */
const unreadMails = (smtp: SmtpPeer) =>
  smtp.mails.filter((mail) => mail.headers.get('x-gaspre-notice') === 'whatsapp.unread')

describe('routing by territory, in turn', () => {
  it('each request reaches one rep of its territory in turn, also across a restart', async () => {
    const peers = await world()
    const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-whatsapp-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const first = await server(peers, { dataDir })
    for (const phone of [MEXICO, MEXICO, MEXICO, SPAIN]) await send(first, phone)
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(4)
    await settled(first)
    await first.close()
    cleanups.pop() // its own close, just done (server() pushed it last)

    const second = await server(peers, { dataDir })
    await send(second, MEXICO)
    await send(second, { user_phone: '1234567' }) // no number of any country: the default
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(6)
    expect(recipients(peers.cloud)).toEqual([
      '+5215511111111',
      '+5215522222222',
      '+5215511111111',
      '+34600111222',
      '+5215522222222',
      '+5215533333333',
    ])
    // The template: name, group, phone (E.164 beside what was written), contact number, comments.
    expect(inTurnOrder(peers.cloud)[3]!.parameters).toEqual([
      'Ana López',
      'Grupo Norte',
      '612 345 678 (+34612345678)',
      '103',
      'Tenemos 12 estaciones en Monterrey y queremos ver precios de la competencia.',
    ])
    expect(inTurnOrder(peers.cloud)[3]!.language).toBe('es_MX')

    // The rep is shown where the sales team looks: the listing, --json, the mail.
    const requests = await settled(second)
    const spanish = requests[3]!
    expect(asJson(spanish).deliveries.find((d) => d.channel === 'whatsapp')).toMatchObject({
      channel: 'whatsapp',
      state: 'delivered',
      rep: '+34600111222',
      territory: '+34',
    })
    expect(formatRecord(spanish, 4)).toMatch(
      /Envío por WhatsApp: +entregado el .* \(a \+34600111222\)/,
    )
    expect(formatRecord(spanish, 4)).toMatch(/WhatsApp \(\+34\): +\+34600111222: enviado el /)
    const mail = peers.smtp.mails.find((each) => each.subject?.includes('n.º 103'))!
    expect(mail.text).toContain('Por WhatsApp a: +34600111222')
    expect(mail.text).toContain('Llamar: tel:+34612345678')
    expect(mail.text).toContain('WhatsApp: https://wa.me/34612345678')
  })

  it('a request held in a flood has its rep from the start, and is messaged once released', async () => {
    const peers = await world()
    const running = await server(peers, { limits: { totalLimitPerMinute: 1, heldLimit: 5 } })
    await send(running, MEXICO)
    await send(running, MEXICO) // past the ceiling: held, told "sent" all the same
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(1)
    const [, held] = await running.requests()
    expect(held!.held).toBe(true)
    expect(whatsappOf(held!).rep).toBe('+5215522222222')
    expect(held!.deliveries.map((d) => d.state)).toEqual(['held', 'held'])

    expect(await running.store.releaseHeldRequests(held!.id)).toBe(1)
    running.worker.kick()
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(2)
    expect(recipients(peers.cloud)).toEqual(['+5215511111111', '+5215522222222'])
    await settled(running)
  })

  it('two servers on one PostgreSQL take turns as one, and send each message once', async () => {
    const peers = await world()
    const databaseUrl = await freshDatabase()
    const one = await server(peers, { kind: 'postgres', databaseUrl })
    const two = await server(peers, { kind: 'postgres', databaseUrl })
    // Two at a time, one to each server.
    for (let i = 0; i < 3; i++) await Promise.all([send(one, MEXICO), send(two, MEXICO)])
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(6)
    await settled(one)
    const counts = new Map<string, number>()
    for (const rep of recipients(peers.cloud)) counts.set(rep, (counts.get(rep) ?? 0) + 1)
    expect(Object.fromEntries(counts)).toEqual({ '+5215511111111': 3, '+5215522222222': 3 })
    const assigned = (await one.requests()).map((each) => whatsappOf(each).reps[0])
    expect(new Set(assigned.slice(0, 2)).size).toBe(2)
    expect(new Set(assigned.slice(2, 4)).size).toBe(2)
    expect(new Set(peers.cloud.messages.map((message) => message.wamid)).size).toBe(6)
  })
})

describe('read, or escalated', () => {
  it('read before its deadline, it stops there; statuses out of order and twice change nothing else', async () => {
    const peers = await world()
    const running = await server(peers)
    const wamid = await sentAndStored(peers, running, MEXICO)
    const sent = seconds(peers.clock.now)
    const statuses: CloudStatus[] = [
      { wamid, status: 'read', timestamp: sent + 300 },
      { wamid, status: 'delivered', timestamp: sent + 60 },
      { wamid, status: 'sent', timestamp: sent + 1 },
      { wamid, status: 'read', timestamp: sent + 900 },
      { wamid, status: 'delivered', timestamp: sent + 400 },
    ]
    for (const status of statuses) {
      expect(await peers.cloud.postStatuses(webhookUrl(running), [status])).toBe(200)
    }
    peers.clock.now += 60 * MINUTE
    expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    const [request] = await running.requests()
    expect(whatsappOf(request!).messages).toMatchObject([
      {
        rep: '+5215511111111',
        deliveredAt: (sent + 60) * 1000,
        readAt: (sent + 300) * 1000,
        movedOnAt: null,
      },
    ])
    const listing = formatRecord(request!, 1)
    expect(listing).toContain(
      '+5215511111111: enviado el miércoles, 25 de noviembre de 2026, 11:00',
    )
    expect(listing).toContain('recibido el miércoles, 25 de noviembre de 2026, 11:01')
    expect(listing).toContain('leído el miércoles, 25 de noviembre de 2026, 11:05')
    expect(peers.cloud.messages).toHaveLength(1)
    expect(unreadMails(peers.smtp)).toHaveLength(0)
  })

  it('a status that comes before the Cloud API answered is kept, and applied once the id is stored', async () => {
    const peers = await world()
    peers.cloud.answerDelayMs = 1_500
    const running = await server(peers)
    await send(running, MEXICO)
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(1)
    const { wamid } = peers.cloud.messages[0]!
    const sent = seconds(peers.clock.now)
    // Meta's status webhook can be quicker than the answer to the send.
    expect(
      await peers.cloud.postStatuses(webhookUrl(running), [
        { wamid, status: 'delivered', timestamp: sent + 1 },
        { wamid, status: 'read', timestamp: sent + 2 },
      ]),
    ).toBe(200)
    expect(whatsappOf((await running.requests())[0]!).messages[0]!.wamid).toBeNull()
    await settled(running)
    await expect
      .poll(async () => whatsappOf((await running.requests())[0]!).messages[0]!.readAt, {
        timeout: 10_000,
      })
      .toBe((sent + 2) * 1000)
    peers.clock.now += 60 * MINUTE
    expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    expect(peers.cloud.messages).toHaveLength(1)
  })

  it('unread past its deadline it goes to the next rep with one mail; when all were tried, one mail says nobody read it', async () => {
    const peers = await world()
    const running = await server(peers)
    const wamid = await sentAndStored(peers, running, { ...MEXICO, contact_number: '100' })
    // Delivered, never read.
    await peers.cloud.postStatuses(webhookUrl(running), [
      { wamid, status: 'delivered', timestamp: seconds(peers.clock.now) + 5 },
    ])
    peers.clock.now += 14 * MINUTE
    expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    peers.clock.now += 2 * MINUTE
    // The worker's own poll may make the move first: either way it is made once.
    await running.worker.whatsapp!.escalateUnread()
    expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    await expect
      .poll(() => recipients(peers.cloud), { timeout: 10_000 })
      .toEqual(['+5215511111111', '+5215522222222'])
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(1)
    const [moved] = unreadMails(peers.smtp)
    // An answer to the request's mail: in its thread, by its Message-ID and its subject.
    const requestMail = peers.smtp.mails.find((mail) => mail.subject?.startsWith('Solicitud'))!
    expect(requestMail.subject).toBe('Solicitud de demo n.º 100: Ana López (Grupo Norte)')
    expect(moved!.subject).toBe(`Re: ${requestMail.subject}`)
    expect(moved!.inReplyTo).toBe(requestMail.messageId)
    expect(moved!.references).toBe(requestMail.messageId)
    // Made by a program (RFC 3834): no out-of-office reply to either.
    for (const mail of [requestMail, moved!]) {
      expect(mail.headers.get('auto-submitted')).toBe('auto-generated')
    }
    expect(moved!.text).toContain(
      '+5215511111111 no leyó en 15 minutos de horario laboral el WhatsApp de la solicitud de demo n.º 100 de Ana López (Grupo Norte).',
    )
    expect(moved!.text).toContain('Ahora se le envía a +5215522222222.')

    // The second rep does not read it either: the territory has no third, so nobody has.
    peers.clock.now += 16 * MINUTE
    // The worker's own poll may make the move first: either way it is made once.
    await running.worker.whatsapp!.escalateUnread()
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(2)
    const nobody = unreadMails(peers.smtp)[1]!
    expect(nobody.subject).toBe('Re: Solicitud de demo n.º 100: Ana López (Grupo Norte)')
    expect(nobody.inReplyTo).toBe(requestMail.messageId)
    expect(nobody.text).toContain(
      'Ya se intentó con todos (+5215511111111 y +5215522222222, a cada uno una vez) y nadie la ha leído en WhatsApp.',
    )
    peers.clock.now += 60 * MINUTE
    expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    expect(peers.cloud.messages).toHaveLength(2)
    const [request] = await settled(running)
    expect(formatRecord(request!, 1)).toMatch(/nadie la ha leído: se avisó por correo/)
  })

  it('a territory of one rep goes on to the default; a failed status moves it on at once', async () => {
    const peers = await world()
    const running = await server(peers)
    const wamid = await sentAndStored(peers, running, SPAIN)
    await peers.cloud.postStatuses(webhookUrl(running), [
      {
        wamid,
        status: 'failed',
        timestamp: seconds(peers.clock.now) + 2,
        error: { code: 131047, title: 'Re-engagement message' },
      },
    ])
    await expect
      .poll(() => recipients(peers.cloud), { timeout: 10_000 })
      .toEqual(['+34600111222', '+5215533333333'])
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(1)
    expect(unreadMails(peers.smtp)[0]!.text).toContain(
      'no le llegó a +34600111222: WhatsApp 131047: Re-engagement message.',
    )
  })

  it('outside working hours it goes at once, and nothing escalates until they begin', async () => {
    const peers = await world()
    // Saturday 28 November 2026, 12:00 in Mexico City.
    peers.clock.now = Date.UTC(2026, 10, 28, 18, 0)
    const running = await server(peers, { workingHours: 'lun-vie 09:00-19:00' })
    await sentAndStored(peers, running, MEXICO)
    // Sunday night, then Monday 09:14: its fifteen working minutes are not over.
    for (const at of [Date.UTC(2026, 10, 30, 5, 0), Date.UTC(2026, 10, 30, 15, 14)]) {
      peers.clock.now = at
      expect(await running.worker.whatsapp!.escalateUnread()).toBe(0)
    }
    peers.clock.now = Date.UTC(2026, 10, 30, 15, 16)
    // The worker's own poll may make the move first: either way it is made once.
    await running.worker.whatsapp!.escalateUnread()
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(2)
  })

  it('with two servers on one PostgreSQL an escalation is made once, and a held WhatsApp channel does not delay its mail', async () => {
    const peers = await world()
    const databaseUrl = await freshDatabase()
    const one = await server(peers, { kind: 'postgres', databaseUrl })
    const two = await server(peers, { kind: 'postgres', databaseUrl })
    await send(one, MEXICO)
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(1)
    await settled(one)
    // Then the Cloud API fails for every message: the WhatsApp channel is held.
    peers.cloud.tokenExpired = true
    await send(two, SPAIN)
    await expect.poll(() => heldChannel(one) || heldChannel(two), { timeout: 10_000 }).toBe(true)
    peers.clock.now += 16 * MINUTE
    await Promise.all([
      one.worker.whatsapp!.escalateUnread(),
      two.worker.whatsapp!.escalateUnread(),
    ])
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(1)
    expect(unreadMails(peers.smtp)[0]!.text).toContain('Ahora se le envía a +5215522222222.')
    // Many polls of both servers later, still one.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(unreadMails(peers.smtp)).toHaveLength(1)
  })

  it('a forged or unsigned status changes nothing; the handshake answers only its token', async () => {
    const peers = await world()
    const running = await server(peers)
    const wamid = await sentAndStored(peers, running, MEXICO)
    const read: CloudStatus = {
      wamid,
      status: 'read',
      timestamp: seconds(peers.clock.now) + 30,
    }
    expect(await peers.cloud.postStatuses(webhookUrl(running), [read], 'forged')).toBe(401)
    expect(await peers.cloud.postStatuses(webhookUrl(running), [read], 'none')).toBe(401)
    const failed: CloudStatus = { ...read, status: 'failed', error: { code: 131026, title: 'x' } }
    expect(await peers.cloud.postStatuses(webhookUrl(running), [failed], 'forged')).toBe(401)
    const [request] = await running.requests()
    expect(whatsappOf(request!).messages[0]).toMatchObject({
      readAt: null,
      failedAt: null,
      movedOnAt: null,
    })
    // Said once, not once a post: a flood of forged posts costs no disk.
    expect(running.log.filter((line) => line.event === 'whatsapp-webhook-forged')).toHaveLength(1)
    // So it is still unread when its deadline passes.
    peers.clock.now += 16 * MINUTE
    // The worker's own poll may make the move first: either way it is made once.
    await running.worker.whatsapp!.escalateUnread()
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(2)

    const handshake = (token: string) =>
      httpRequest(
        running.url,
        `${WHATSAPP_WEBHOOK_PATH}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
      )
    expect(await handshake(VERIFY_TOKEN)).toMatchObject({ status: 200, text: '1158201444' })
    expect((await handshake('otro-token-cualquiera')).status).toBe(403)
  })
})

describe('faults as the other channels have them', () => {
  it('an expired token holds the channel, the mail goes on, and nothing is lost', async () => {
    const peers = await world()
    peers.cloud.tokenExpired = true
    const running = await server(peers)
    for (let i = 0; i < 3; i++) await send(running, MEXICO)
    await expect.poll(() => peers.smtp.mails.length, { timeout: 10_000 }).toBe(3)
    await expect
      .poll(async () =>
        (await running.requests()).some((each) =>
          /WhatsApp 190/.test(
            each.deliveries.find((d) => d.channel === 'whatsapp')!.lastError ?? '',
          ),
        ),
      )
      .toBe(true)
    const held = (await running.requests()).map((each) =>
      each.deliveries.find((d) => d.channel === 'whatsapp')!,
    )
    expect(held.map((d) => [d.state, d.attempts])).toEqual(Array(3).fill(['pending', 0]))
    expect(running.log.map((line) => `${String(line.event)} ${String(line.channel)}`)).toContain(
      'delivery-failing whatsapp',
    )
    peers.cloud.tokenExpired = false
    await settled(running)
    expect(recipients(peers.cloud)).toEqual(['+5215511111111', '+5215522222222', '+5215511111111'])
    expect(running.log.filter((line) => line.event === 'delivery-dead-letter')).toEqual([])
  })

  it('a rep whose number cannot receive is skipped for the next one at once, and the mail says so', async () => {
    const peers = await world()
    peers.cloud.unreachable.add('5215511111111')
    const webhook = await startWebhookPeer()
    cleanups.push(() => webhook.close())
    const running = await server(peers, { webhookUrl: webhook.url })
    await send(running, MEXICO)
    await expect
      .poll(() => recipients(peers.cloud), { timeout: 10_000 })
      .toEqual(['+5215522222222'])
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(1)
    expect(unreadMails(peers.smtp)[0]!.text).toContain(
      'El número +5215511111111 no puede recibir el WhatsApp',
    )
    const [request] = await settled(running)
    expect(request!.deliveries.map((d) => [d.channel, d.state])).toEqual([
      ['email', 'delivered'],
      ['webhook', 'delivered'],
      ['whatsapp', 'delivered'],
    ])
    // The webhook tells the CRM which rep it went to when it was stored.
    expect(webhook.received[0]!.body).toMatchObject({
      data: { whatsapp: { rep: '+5215511111111', territory: '+52' }, phoneE164: '+525512345678' },
    })
  })
})

describe('every rep refused', () => {
  it('when no number of its route can receive it, it is a dead letter; re-sent, it starts a new round', async () => {
    const peers = await world()
    peers.cloud.unreachable.add('5215511111111').add('5215522222222')
    const running = await server(peers)
    await send(running, { ...MEXICO, contact_number: '31' })
    const [dead] = await settled(running)
    expect(dead!.deliveries.find((d) => d.channel === 'whatsapp')).toMatchObject({
      state: 'failed',
      lastError: expect.stringMatching(/^ningún número de su ruta la recibe: WhatsApp 131026/),
    })
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(2)
    // Two mails in the request's thread, sent side by side (in either order), each saying the
    // number could not receive it: neither calls it unread.
    const texts = unreadMails(peers.smtp).map((mail) => mail.text ?? '')
    expect(unreadMails(peers.smtp).map((mail) => mail.subject)).toEqual(
      Array(2).fill('Re: Solicitud de demo n.º 31: Ana López (Grupo Norte)'),
    )
    expect(texts.filter((text) => text.includes('no puede recibir el WhatsApp'))).toHaveLength(2)
    expect(texts.join('\n')).not.toMatch(/sin leer|no leyó/)
    expect(peers.cloud.messages).toHaveLength(0)

    // The routes mended (a rep's WhatsApp set up), `npm run outbox -- --resend-failed`.
    peers.cloud.unreachable.clear()
    expect(await running.store.queue.resendFailed()).toBe(1)
    running.worker.kick()
    await expect
      .poll(() => recipients(peers.cloud), { timeout: 10_000 })
      .toEqual(['+5215511111111'])
    const [again] = await settled(running)
    expect(whatsappOf(again!).messages.map((message) => [message.step, message.rep])).toEqual([
      [0, '+5215511111111'],
      [1, '+5215522222222'],
      [2, '+5215511111111'],
    ])
  })
})

describe('what the rep sees is true', () => {
  it('a display name never carries an address, and invisible characters show as the listing shows them', async () => {
    const peers = await world()
    const running = await server(peers)
    await send(running, {
      ...MEXICO,
      contact_number: '4821',
      user_name: 'Soporte GASPRE <soporte@gaspre.test>',
      user_group: 'Grupo\u200b Norte\u200f \u{e0041}\u{e0042}',
      message: 'Hola\u200b equipo',
    })
    await expect.poll(() => peers.smtp.mails.length, { timeout: 10_000 }).toBe(1)
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(1)
    const [mail] = peers.smtp.mails
    // The visitor's own address, under a name that names none.
    expect(mail!.replyTo!.value).toEqual([{ name: 'Soporte GASPRE', address: 'ana@gasolinera.mx' }])
    expect(mail!.headers.get('reply-to')).toMatchObject({
      text: '"Soporte GASPRE" <ana@gasolinera.mx>',
    })
    const group = 'Grupo\\u200b Norte\\u200f \\u{e0041}\\u{e0042}'
    expect(mail!.subject).toBe(
      `Solicitud de demo n.º 4821: Soporte GASPRE <soporte@gaspre.test> (${group})`,
    )
    expect(mail!.text).toContain(`Grupo o estación: ${group}`)
    expect(mail!.text).toContain('Hola\\u200b equipo')
    expect(mail!.html).toContain(group)
    expect(`${mail!.subject}${mail!.text}${String(mail!.html)}`).not.toMatch(
      /[\u200b\u200f\u{e0000}-\u{e007f}]/u,
    )
    // The template shows them the same way, on one line.
    expect(peers.cloud.messages[0]!.parameters[1]).toBe(group)
  })
})

describe('npm start', () => {
  it('sends to the rep with the settings of the environment, and takes the signed statuses', async () => {
    const peers = await world()
    const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-whatsapp-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: peers.smtp.url,
      LEADS_MAIL_TO: 'ventas@gaspre.mx',
      LEADS_MAIL_FROM: 'avisos@gaspre.mx',
      WHATSAPP_API_URL: peers.cloud.url,
      ...STAND_IN_ENV,
      LEADS_WHATSAPP_ROUTES: ROUTES,
    }
    const site = await startSite({ host: 'node', server: MAIN_JS, build: { dir: dist.dist }, env })
    cleanups.push(() => site.stop())
    // Printed just after "Listening on", which is what startSite waits for.
    await expect
      .poll(() => site.lines)
      .toContain(
        'Each request is delivered by e-mail to ventas@gaspre.mx and WhatsApp to the reps of LEADS_WHATSAPP_ROUTES (status webhook at /api/whatsapp/webhook)',
      )
    const sent = await sendDemoRequest(site.origin, { ...VISITOR, ...SPAIN, contact_number: '7' })
    expect(sent.status).toBe(200)
    await expect.poll(() => recipients(peers.cloud), { timeout: 10_000 }).toEqual(['+34600111222'])
    await expect
      .poll(async () => (await storedRequests({ dataDir }))[0]?.whatsapp?.messages[0]?.wamid, {
        timeout: 10_000,
      })
      .toBe(peers.cloud.messages[0]!.wamid)
    const read: CloudStatus = {
      wamid: peers.cloud.messages[0]!.wamid,
      status: 'read',
      timestamp: seconds(Date.now()),
    }
    expect(await peers.cloud.postStatuses(`${site.origin}${WHATSAPP_WEBHOOK_PATH}`, [read])).toBe(
      200,
    )
    await expect
      .poll(async () => (await storedRequests({ dataDir }))[0]?.whatsapp?.messages[0]?.readAt, {
        timeout: 10_000,
      })
      .toBe(read.timestamp * 1000)

    // A route that is no phone number stops the start, naming the variable.
    const otherDir = await mkdtemp(join(tmpdir(), 'gaspre-whatsapp-'))
    cleanups.push(() => rm(otherDir, { recursive: true, force: true }))
    const refused = spawnSite({
      host: 'node',
      server: MAIN_JS,
      build: { dir: dist.dist },
      env: {
        ...env,
        DATA_DIR: otherDir,
        LEADS_WHATSAPP_ROUTES: '+52=ventas;*=+5215533333333',
      },
    })
    cleanups.push(() => refused.stop())
    expect((await refused.exited).code).toBe(1)
    expect(refused.lines).toEqual([
      'LEADS_WHATSAPP_ROUTES "ventas" (for +52) is not a phone number with its country code, such as +5215511111111',
    ])
  })
})

const heldChannel = (running: RunningDelivery) =>
  running.log.some((line) => line.event === 'delivery-failing' && line.channel === 'whatsapp')

const whatsappDelivery = (request: StoredRequest) =>
  request.deliveries.find((d) => d.channel === 'whatsapp')!

describe('each fault stays with what caused it', () => {
  it('a rep the business blocked (130403) is skipped at once, never retried; the others go on', async () => {
    const peers = await world()
    peers.cloud.errorFor = (to) => (to === '5215511111111' ? 130403 : undefined)
    const running = await server(peers)
    await send(running, MEXICO)
    await send(running, SPAIN)
    await expect
      .poll(() => recipients(peers.cloud).sort(), { timeout: 10_000 })
      .toEqual(['+34600111222', '+5215522222222'])
    await expect.poll(() => unreadMails(peers.smtp).length, { timeout: 10_000 }).toBe(1)
    expect(unreadMails(peers.smtp)[0]!.text).toContain('130403')
    expect(peers.cloud.attempts.filter((each) => each.code === 130403)).toHaveLength(1)
    const requests = await settled(running)
    expect(requests.map((request) => whatsappDelivery(request).state)).toEqual([
      'delivered',
      'delivered',
    ])
    expect(heldChannel(running)).toBe(false)
  })

  it("one rep's pair rate limit (131056) holds that request alone, for its wait; the other reps get theirs", async () => {
    const peers = await world()
    let limited = 1
    peers.cloud.errorFor = (to) => (to === '5215511111111' && limited-- > 0 ? 131056 : undefined)
    const running = await server(peers)
    await twoFromMexicoOneFromSpain(peers, running)
    const [first] = await running.requests()
    expect(whatsappDelivery(first!)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: expect.stringMatching(/^WhatsApp 131056/),
    })
    // Meta's pair rate: it waits its turn for that rep, and goes to the same rep.
    await expect.poll(() => peers.cloud.messages.length, { timeout: 20_000 }).toBe(3)
    expect(recipients(peers.cloud)[0]).toBe('+5215511111111')
    expect(unreadMails(peers.smtp)).toHaveLength(0)
    expect(heldChannel(running)).toBe(false)
  })

  it('a 131047 to a template moves it to no other rep: it is retried on its own while the others go', async () => {
    const peers = await world()
    peers.cloud.errorFor = (to) => (to === '5215511111111' ? 131047 : undefined)
    const running = await server(peers)
    await twoFromMexicoOneFromSpain(peers, running)
    await expect
      .poll(async () => whatsappDelivery((await running.requests())[0]!).attempts, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1)
    const [first] = await running.requests()
    expect(whatsappDelivery(first!)).toMatchObject({
      state: 'pending',
      lastError: expect.stringMatching(/^WhatsApp 131047/),
    })
    // Still its first rep's: a template is exempt from the 24-hour window.
    expect(whatsappOf(first!).messages.map((message) => message.rep)).toEqual(['+5215511111111'])
    expect(unreadMails(peers.smtp)).toHaveLength(0)
  })

  it('a message Meta holds for quality assessment is not said to have reached the rep', async () => {
    const peers = await world()
    peers.cloud.holdsForQuality = true
    const running = await server(peers)
    await send(running, SPAIN)
    const [request] = await settled(running)
    expect(whatsappDelivery(request!).lastError).toBe(
      'a +34600111222, que aún no lo recibe: Meta lo retiene para revisar su calidad',
    )
    // Unread past its deadline, it goes on like any other.
    peers.clock.now += 16 * MINUTE
    await running.worker.whatsapp!.escalateUnread()
    await expect.poll(() => peers.cloud.messages.length, { timeout: 10_000 }).toBe(2)
  })

  it("takes a signed batch of statuses as large as Meta's 3 MB, and a repeated status once", async () => {
    const peers = await world()
    const running = await server(peers)
    const unknown: CloudStatus[] = Array.from({ length: 5 }, (_, i) => ({
      wamid: `wamid.de-otro-sistema-${i}`,
      status: 'delivered' as const,
      timestamp: seconds(peers.clock.now),
    }))
    // Meta batches: the statuses come with a few hundred inbound messages (2.5 MB in all).
    const inbound = 'x'.repeat(4_000)
    expect(
      await peers.cloud.postStatuses(webhookUrl(running), unknown, 'valid', {
        inbound: Array(640).fill(inbound),
      }),
    ).toBe(200)
    expect(await peers.cloud.postStatuses(webhookUrl(running), unknown)).toBe(200)
    const kept = await rawDatabase(running.store)
      .selectFrom('lead_whatsapp_early_statuses')
      .select(['wamid', 'status'])
      .execute()
    expect(kept.map((row) => row.wamid).sort()).toEqual(unknown.map((each) => each.wamid).sort())
  })
})
