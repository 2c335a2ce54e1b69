// A broken channel holds its requests, says so, and resumes by itself: against real peers that
// refuse the login, speak the wrong TLS, never greet, stall or answer without end, a webhook
// receiver that answers 401, 410, a redirect or nothing. Nothing a channel fault touches becomes
// a dead letter; everything held goes out once when the channel works; the other channel is
// never held up; /healthz/delivery and the notices on the other channel tell people in time.
// And a fault only one request keeps meeting (a receiver that answers 500 to one body, a mail
// server that answers 451 to one message) holds nobody: the others go out on time, that one is
// retried on its own, each try logged, named in a notice, and a dead letter at the end.
import { describe, expect, it } from 'vitest'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import {
  type Peers,
  type SmtpPeer,
  startHostileSmtpPeer,
  startPeers,
  type WebhookPeer,
} from '../../testing/server/delivery-peers.js'
import {
  events,
  settled,
  startDelivery,
  type DeliverySetup,
  type RunningDelivery,
} from '../../testing/server/delivery-harness.js'
import { sendDemoRequest } from '../../testing/server/demo-request.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { rawDatabase } from '../../testing/server/store.js'
import type { Channel, StoredRequest } from '../store/lead-store.js'

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

async function server(setup: Omit<DeliverySetup, 'kind'> & { kind?: DeliverySetup['kind'] }) {
  const running = await startDelivery({ kind: 'sqlite', ...setup, dist: dist.dist })
  cleanups.push(() => running.close())
  return running
}

/** Two servers sharing one new PostgreSQL database, delivering to the same peers. */
async function twoServersOnOnePostgres(
  { smtp, webhook }: Peers,
  setup: Partial<DeliverySetup>,
): Promise<[RunningDelivery, RunningDelivery]> {
  const shared = {
    kind: 'postgres' as const,
    databaseUrl: await freshDatabase(),
    smtpUrl: smtp.url,
    webhookUrl: webhook.url,
    ...setup,
  }
  return [await server(shared), await server(shared)]
}

async function send(running: RunningDelivery, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++) {
    const sent = await sendDemoRequest(running.request, {
      contact_number: `${1000 + i}`,
      ...VISITOR,
    })
    expect(sent.status).toBe(200)
  }
}

const VISITOR = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Norte',
}

const deliveriesOf = (requests: StoredRequest[], channel: Channel) =>
  requests.flatMap((request) => request.deliveries.filter((d) => d.channel === channel))

/** Waits until `check` holds for the stored requests. */
async function until(
  running: RunningDelivery,
  check: (requests: StoredRequest[]) => boolean,
  timeout = 20_000,
) {
  await expect
    .poll(async () => check(await running.requests()), { timeout, interval: 50 })
    .toBe(true)
}

const posted = (webhook: WebhookPeer, type: string) =>
  webhook.received.filter((each) => each.body.type === type)

describe.each(['sqlite', 'postgres'] as const)('channel faults on %s', (kind) => {
  it('a rotated SMTP password holds the mail; when it works again every held request is mailed once', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    smtp.authFails = true
    const running = await server({ kind, smtpUrl: smtp.url, webhookUrl: webhook.url })
    await send(running, 3)
    // The webhook goes on as before; the mail waits, uncounted, and is probed one at a time.
    await expect.poll(() => webhook.received.length, { timeout: 10_000 }).toBe(3)
    await expect.poll(() => smtp.logins, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    const held = deliveriesOf(await running.requests(), 'email')
    expect(held.map((d) => [d.state, d.attempts])).toEqual(Array(3).fill(['pending', 0]))
    expect(held[0]!.lastError).toMatch(/^SMTP 535/)
    expect(smtp.mails).toHaveLength(0)
    // Still young: the health endpoint does not cry yet, and nobody was sent a notice. Polled:
    // a failed send puts its job back before it marks the channel failing.
    await expect
      .poll(() => running.health())
      .toEqual({
        status: 200,
        body: {
          status: 'ok',
          channels: { email: 'failing', webhook: 'delivering' },
          deadLetters: 0,
          held: 0,
        },
      })

    smtp.authFails = false
    const requests = await settled(running)
    expect(deliveriesOf(requests, 'email').map((d) => d.state)).toEqual(Array(3).fill('delivered'))
    expect(smtp.mails.map((mail) => mail.messageId).sort()).toEqual(
      requests.map((request) => `<lead-${request.id}@gaspre.mx>`).sort(),
    )
    const said = events(running.log)
    expect(said.filter((e) => e === 'delivery-failing email')).toHaveLength(1)
    expect(said.filter((e) => e === 'delivery-recovered email')).toHaveLength(1)
    expect(said.filter((e) => e.startsWith('delivery-dead-letter'))).toEqual([])
    expect((await running.health()).body).toEqual({
      status: 'ok',
      channels: { email: 'delivering', webhook: 'delivering' },
      deadLetters: 0,
      held: 0,
    })
  })

  it('a webhook that answers 401, 410 and a redirect is held; once it answers 200 each request is posted once', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    const answers: (number | 'redirect')[] = [401, 410, 'redirect', 401, 410, 'redirect']
    webhook.answer = () => answers.shift()
    const running = await server({ kind, smtpUrl: smtp.url, webhookUrl: webhook.url })
    await send(running, 3)
    const requests = await settled(running)
    expect(requests.flatMap((r) => r.deliveries.map((d) => d.state))).toEqual(
      Array(6).fill('delivered'),
    )
    expect(webhook.received.map((each) => each.id).sort()).toEqual(
      requests.map((request) => request.id).sort(),
    )
    expect(webhook.attempts.map((each) => each.status).slice(0, 6)).toEqual([
      401, 410, 307, 401, 410, 307,
    ])
    expect(smtp.mails).toHaveLength(3)
    expect(deliveriesOf(requests, 'webhook').every((d) => d.attempts === 1)).toBe(true)
    expect(events(running.log).filter((e) => e.startsWith('delivery-dead-letter'))).toEqual([])
  })
})

describe('peers that never answer', () => {
  it.each([
    ['a TLS mismatch', 'tls'],
    ['a mail server that never greets', 'never-greets'],
    ['a mail server that stalls after DATA', 'stalls-after-data'],
    ['a mail server that answers 250- lines without end', 'answers-forever'],
  ] as const)('%s holds the mail channel and never the webhook', async (_name, behaviour) => {
    const { smtp, webhook } = await startPeers(cleanups)
    const hostile =
      behaviour === 'tls' ? null : await startHostileSmtpPeer(behaviour, { everyMs: 100 })
    if (hostile !== null) cleanups.push(() => hostile.close())
    // smtps:// to a server that speaks plain SMTP: the TLS handshake fails.
    const smtpUrl = hostile?.url ?? smtp.url.replace('smtp://', 'smtps://')
    const running = await server({
      smtpUrl,
      webhookUrl: webhook.url,
      worker: { pollMs: 50, firstBackoffMs: 50, sendDeadlineMs: 1_500 },
    })
    await send(running, 5)
    // Every post arrives while the mail server holds its connection (or refuses TLS).
    await expect.poll(() => webhook.received.length, { timeout: 10_000 }).toBe(5)
    await until(running, (requests) =>
      deliveriesOf(requests, 'email').some((d) => (d.lastError ?? '') !== ''),
    )
    const mails = deliveriesOf(await running.requests(), 'email')
    expect(mails.every((d) => d.state === 'pending' && d.attempts === 0)).toBe(true)
    if (behaviour === 'stalls-after-data' || behaviour === 'answers-forever') {
      expect(mails.some((d) => /no answer within 2 s: cut/.test(d.lastError ?? ''))).toBe(true)
    }
    expect(events(running.log)).toContain('delivery-failing email')
    expect(events(running.log).filter((e) => e.startsWith('delivery-dead-letter'))).toEqual([])

    // A stop cuts what is in flight at once and puts it back as it was.
    await running.worker.stop()
    expect(
      deliveriesOf(await running.requests(), 'email').every(
        (d) => d.state === 'pending' && d.attempts === 0 && d.sendingUntil === null,
      ),
    ).toBe(true)
  })

  it('a mail server that floods its answers is cut past a bound, whatever its pace', async () => {
    const { webhook } = await startPeers(cleanups)
    const hostile = await startHostileSmtpPeer('answers-forever', {
      everyMs: 5,
      lineBytes: 16 * 1024,
    })
    cleanups.push(() => hostile.close())
    const running = await server({
      smtpUrl: hostile.url,
      webhookUrl: webhook.url,
      worker: { pollMs: 50, firstBackoffMs: 50, sendDeadlineMs: 60_000 },
    })
    await send(running, 1)
    await until(running, (requests) =>
      deliveriesOf(requests, 'email').some((d) =>
        /more than 262144 bytes of answers/.test(d.lastError ?? ''),
      ),
    )
  })

  it('a webhook that never answers is cut at the deadline and never delays the mail', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    webhook.answer = () => 'hang'
    const running = await server({
      smtpUrl: smtp.url,
      webhookUrl: webhook.url,
      worker: { pollMs: 50, firstBackoffMs: 50, sendDeadlineMs: 2_000 },
    })
    await send(running, 10)
    // Every mail arrives while the webhook's first posts still hang. (A mail cut by its own
    // deadline after the server took it would come twice, with the same Message-ID.)
    const mailed = () => new Set(smtp.mails.map((mail) => mail.messageId)).size
    await expect.poll(mailed, { timeout: 10_000 }).toBe(10)
    expect(webhook.received).toHaveLength(0)
    await until(running, (requests) =>
      deliveriesOf(requests, 'webhook').some((d) => /no answer within 2 s/.test(d.lastError ?? '')),
    )
    webhook.answer = () => undefined
    const requests = await settled(running)
    expect(deliveriesOf(requests, 'webhook').map((d) => d.state)).toEqual(
      Array(10).fill('delivered'),
    )
    expect(new Set(webhook.received.map((each) => each.id)).size).toBe(10)
  })
})

describe('every recipient, every time', () => {
  it('a recipient busy with 452 is retried on its own; the other gets the mail once', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    smtp.busy.set('direccion@gaspre.mx', 2)
    const running = await server({
      smtpUrl: smtp.url,
      mailTo: ['ventas@gaspre.mx', 'direccion@gaspre.mx'],
      webhookUrl: webhook.url,
    })
    await send(running, 1)
    const [request] = await settled(running)
    expect(request!.deliveries.find((d) => d.channel === 'email')).toMatchObject({
      state: 'delivered',
      attempts: 3,
      doneRecipients: ['ventas@gaspre.mx', 'direccion@gaspre.mx'],
    })
    expect(smtp.envelopes).toEqual([['ventas@gaspre.mx'], ['direccion@gaspre.mx']])
  })

  it('every configured recipient refused at RCPT TO is a channel fault, not a dead letter', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    smtp.rejected.add('ventas@gaspre.mx')
    const running = await server({ smtpUrl: smtp.url, webhookUrl: webhook.url })
    await send(running, 2)
    await until(running, (requests) =>
      deliveriesOf(requests, 'email').every((d) => /^SMTP 550/.test(d.lastError ?? '')),
    )
    expect(deliveriesOf(await running.requests(), 'email').map((d) => d.state)).toEqual([
      'pending',
      'pending',
    ])
    smtp.rejected.clear()
    await settled(running)
    expect(smtp.mails).toHaveLength(2)
  })

  it('a message refused at the end of DATA while others go through is a dead letter', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    smtp.refuses = (mail) => (mail.subject ?? '').includes('n.º 1001')
    const running = await server({ smtpUrl: smtp.url, webhookUrl: webhook.url })
    await send(running, 3)
    const requests = await settled(running)
    const states = deliveriesOf(requests, 'email').map((d) => d.state)
    expect(states).toEqual(['delivered', 'failed', 'delivered'])
    expect(deliveriesOf(requests, 'email')[1]!.lastError).toMatch(/^SMTP 554/)
    expect(smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Solicitud'))).toHaveLength(
      2,
    )
    // The dead letter is told: one notice names it (by mail, which delivers the others).
    await expect
      .poll(() => noticeMails(smtp, 'delivery.dead_letter').map((mail) => mail.subject), {
        timeout: 10_000,
      })
      .toEqual(['No se entregó por correo la solicitud de demo 1001'])
  })
})

describe('the people who can mend it are told', () => {
  it.each([
    ['email', 'webhook'],
    ['webhook', 'email'],
  ] as const)(
    'a failing %s: /healthz/delivery 200 → 503 → 200, one notice on the %s, one when it recovers',
    async (failing, carrier) => {
      const { smtp, webhook } = await startPeers(cleanups)
      if (failing === 'email') smtp.authFails = true
      else webhook.answer = (body) => (body.type === 'demo_request.created' ? 401 : undefined)
      const running = await server({
        smtpUrl: smtp.url,
        webhookUrl: webhook.url,
        alertAfterMs: 400,
      })
      expect((await running.health()).status).toBe(200)
      await send(running, 2)
      // The carrier delivers its own; the failing channel turns `down` once it has failed long.
      await until(running, (requests) =>
        deliveriesOf(requests, carrier).every((d) => d.state === 'delivered'),
      )
      await expect
        .poll(async () => (await running.health()).body, { timeout: 10_000 })
        .toEqual({
          status: 'failing',
          channels: { [failing]: 'down', [carrier]: 'delivering' },
          deadLetters: 0,
          held: 0,
        })
      const down = await running.health()
      expect(down.status).toBe(503)
      // Names channels and states only.
      expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|gaspre\.mx|SMTP|HTTP/)

      const failingNotices = () =>
        carrier === 'webhook'
          ? posted(webhook, 'delivery.failing').length
          : smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Aviso:')).length
      await expect.poll(failingNotices, { timeout: 10_000 }).toBe(1)
      // Many polls later, still one notice for this outage.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(failingNotices()).toBe(1)
      if (carrier === 'webhook') {
        const notice = posted(webhook, 'delivery.failing')[0]!
        expect(notice.body.data).toMatchObject({ channel: 'email', waiting: 2 })
        expect(String((notice.body.data as { reason: string }).reason)).toMatch(/^SMTP 535/)
      } else {
        const mail = smtp.mails.find((each) => (each.subject ?? '').startsWith('Aviso:'))!
        expect(mail.subject).toBe('Aviso: las solicitudes de demo no salen por webhook')
        expect(mail.text).toContain('Esperan 2 solicitudes de ese envío.')
        expect(mail.text).toContain('No se pierde ninguna')
        expect(mail.text).toContain('LEADS_WEBHOOK_SECRET')
      }

      if (failing === 'email') smtp.authFails = false
      else webhook.answer = () => undefined
      await settled(running)
      await expect.poll(async () => (await running.health()).status, { timeout: 10_000 }).toBe(200)
      const recovered = () =>
        carrier === 'webhook'
          ? posted(webhook, 'delivery.recovered').length
          : smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Resuelto:')).length
      await expect.poll(recovered, { timeout: 10_000 }).toBe(1)
      if (carrier === 'webhook') {
        expect(posted(webhook, 'delivery.recovered')[0]!.body.data).toMatchObject({
          channel: 'email',
        })
      }
    },
  )

  it('a flood held past the ceiling sends the sales team one notice per episode, on each channel', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    const running = await server({
      smtpUrl: smtp.url,
      webhookUrl: webhook.url,
      // Twelve requests from this one client: its own limit is not what this shows.
      limits: { totalLimitPerMinute: 2, heldLimit: 50, rateLimitPerMinute: 100 },
    })
    await send(running, 5)
    await expect
      .poll(() => posted(webhook, 'demo_requests.held').length, { timeout: 10_000 })
      .toBe(1)
    const flood = () =>
      smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Aviso: llegan'))
    await expect.poll(() => flood().length, { timeout: 10_000 }).toBe(1)
    expect(flood()[0]!.text).toContain('no se envían a nadie: hay 1 por ahora.')
    expect(posted(webhook, 'demo_requests.held')[0]!.body.data).toMatchObject({ held: 1 })
    // The same episode: no more notices.
    await send(running, 2, 5)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(posted(webhook, 'demo_requests.held')).toHaveLength(1)
    expect(flood()).toHaveLength(1)
    // Until it grows tenfold: ten held, and one more notice on each channel says so.
    await send(running, 5, 7)
    await expect
      .poll(() => posted(webhook, 'demo_requests.held').length, { timeout: 10_000 })
      .toBe(2)
    expect(posted(webhook, 'demo_requests.held')[1]!.body.data).toMatchObject({ held: 10 })
    const grew = () =>
      smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Aviso: la avalancha'))
    await expect.poll(() => grew().length, { timeout: 10_000 }).toBe(1)
    expect(grew()[0]!.subject).toBe(
      'Aviso: la avalancha de solicitudes de demo sigue; ya hay 10 retenidas',
    )
    expect(grew()[0]!.text).toContain('ya hay 10 solicitudes retenidas, que no se envían a nadie')
    // Only the two under the ceiling went out as requests.
    expect(smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Solicitud'))).toHaveLength(
      2,
    )
  })

  it('two servers on one PostgreSQL send one notice per outage, and each request once', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    smtp.authFails = true
    const [a, b] = await twoServersOnOnePostgres({ smtp, webhook }, { alertAfterMs: 400 })
    await send(a, 3)
    await send(b, 3, 3)
    await expect.poll(() => posted(webhook, 'delivery.failing').length, { timeout: 10_000 }).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(posted(webhook, 'delivery.failing')).toHaveLength(1)
    smtp.authFails = false
    await settled(a)
    await expect
      .poll(() => posted(webhook, 'delivery.recovered').length, { timeout: 10_000 })
      .toBe(1)
    expect(smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Solicitud'))).toHaveLength(
      6,
    )
    expect(new Set(smtp.mails.map((mail) => mail.messageId)).size).toBe(6)
  })

  it('two servers on one PostgreSQL with a slow mail server mail each request once', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    // Each mail takes longer than a hold on it lasts: only its renewal keeps the other server off.
    // Renewed every 500 ms, a hold outlasts a stall of its server of over a second (a shared,
    // loaded machine stalls processes for hundreds of milliseconds; production holds 20 s).
    smtp.delayMs = 2_500
    const [a, b] = await twoServersOnOnePostgres(
      { smtp, webhook },
      { worker: { pollMs: 50, firstBackoffMs: 50, leaseMs: 2_000 } },
    )
    await send(a, 6)
    await send(b, 6, 6)
    await settled(a, 60_000)
    expect(smtp.mails).toHaveLength(12)
    expect(new Set(smtp.mails.map((mail) => mail.messageId)).size).toBe(12)
  })
})

/** Three days later: the job's last try is its last (its retry_until is now). */
async function threeDaysLater(running: RunningDelivery, requestId: string, channel: Channel) {
  await rawDatabase(running.store)
    .updateTable('lead_jobs')
    .set({ retry_until: Date.now() })
    .where('id', '=', `${requestId}/${channel}`)
    .execute()
}

/**
 * Request 1000's delivery on `channel` is posted to the webhook as stuck, once; three days
 * later it has failed for good.
 */
async function stuckThenFailed(
  running: RunningDelivery,
  webhook: WebhookPeer,
  requestId: string,
  channel: Channel,
): Promise<void> {
  await expect.poll(() => posted(webhook, 'delivery.stuck').length, { timeout: 10_000 }).toBe(1)
  expect(posted(webhook, 'delivery.stuck')[0]!.body.data).toMatchObject({
    channel,
    request: { requestId, contactNumber: '1000' },
  })
  await threeDaysLater(running, requestId, channel)
  await until(running, (requests) => deliveriesOf(requests, channel)[0]!.state === 'failed')
}

const noticeMails = (smtp: SmtpPeer, type: string) =>
  smtp.mails.filter((mail) => mail.headers.get('x-gaspre-notice') === type)

describe('one request that keeps failing holds nobody', () => {
  it('a webhook that answers 500 to one body: the others are posted, that one goes on its own schedule and ends as a dead letter with a notice', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    // A CRM whose parser fails on one name, and only on it.
    const stuck = (body: Record<string, unknown>) =>
      (body.data as { contactNumber?: string } | undefined)?.contactNumber === '1000'
    webhook.answer = (body) => (stuck(body) ? 500 : undefined)
    const running = await server({ smtpUrl: smtp.url, webhookUrl: webhook.url, alertAfterMs: 300 })
    await send(running, 1)
    await send(running, 5, 1)
    const requestPosts = () => posted(webhook, 'demo_request.created')
    await expect.poll(() => requestPosts().length, { timeout: 10_000 }).toBe(5)
    const [first] = await running.requests()
    // Retried on its own backoff, each try counted and said with its request and error.
    await until(running, (requests) => deliveriesOf(requests, 'webhook')[0]!.attempts >= 3)
    expect(deliveriesOf(await running.requests(), 'webhook')[0]).toMatchObject({
      state: 'pending',
      lastError: 'HTTP 500',
    })
    const tries = running.log.filter(
      (line) => line.event === 'delivery-retry' && line.id === first!.id,
    )
    expect(tries.length).toBeGreaterThanOrEqual(2)
    expect(tries[0]).toMatchObject({ level: 40, channel: 'webhook', reason: 'HTTP 500' })
    // Past LEADS_ALERT_AFTER_SECONDS it is named, once, on every channel that carries notices.
    await expect.poll(() => noticeMails(smtp, 'delivery.stuck').length, { timeout: 10_000 }).toBe(1)
    const named = noticeMails(smtp, 'delivery.stuck')[0]!
    expect(named.subject).toBe('Aviso: la solicitud de demo 1000 no sale por webhook')
    expect(named.text).toContain(
      'La solicitud de demo n.º 1000 de Ana López (Grupo Norte) no sale por webhook',
    )
    expect(named.text).toContain('Último error: HTTP 500.')
    await stuckThenFailed(running, webhook, first!.id, 'webhook')
    await expect
      .poll(() => noticeMails(smtp, 'delivery.dead_letter').length, { timeout: 10_000 })
      .toBe(1)
    expect(noticeMails(smtp, 'delivery.dead_letter')[0]!.text).toContain(
      `npm run outbox -- --resend ${first!.id}`,
    )
    // The mail went out for every request; the webhook delivered every other one.
    const requests = await running.requests()
    expect(deliveriesOf(requests, 'email').every((d) => d.state === 'delivered')).toBe(true)
    expect(deliveriesOf(requests, 'webhook').map((d) => d.state)).toEqual([
      'failed',
      ...Array(5).fill('delivered'),
    ])
  })

  it.each(['sqlite', 'postgres'] as const)(
    'a mail server that answers 451 to one message (%s): the others are mailed, that one is retried on its own and ends as a dead letter with a notice',
    async (kind) => {
      const { smtp, webhook } = await startPeers(cleanups)
      smtp.defers = (mail) => (mail.subject ?? '').includes('n.º 1000')
      const running = await server({
        kind,
        smtpUrl: smtp.url,
        webhookUrl: webhook.url,
        alertAfterMs: 300,
      })
      await send(running, 1)
      await send(running, 4, 1)
      const requestMails = () =>
        smtp.mails.filter((mail) => (mail.subject ?? '').startsWith('Solicitud'))
      await expect.poll(() => requestMails().length, { timeout: 10_000 }).toBe(4)
      const [first] = await running.requests()
      await until(running, (requests) => deliveriesOf(requests, 'email')[0]!.attempts >= 3)
      expect(deliveriesOf(await running.requests(), 'email')[0]!.lastError).toMatch(/^SMTP 451/)
      const tries = running.log.filter(
        (line) => line.event === 'delivery-retry' && line.id === first!.id,
      )
      expect(tries.length).toBeGreaterThanOrEqual(2)
      expect(String(tries[0]!.reason)).toMatch(/^SMTP 451/)
      await stuckThenFailed(running, webhook, first!.id, 'email')
      await expect
        .poll(() => posted(webhook, 'delivery.dead_letter').length, { timeout: 10_000 })
        .toBe(1)
      expect(requestMails().map((mail) => mail.subject)).not.toContainEqual(
        expect.stringContaining('n.º 1000'),
      )
      expect(events(running.log)).not.toContain('delivery-failing email')
    },
  )

  it('a held channel probes its waiting requests in turn: one that keeps failing takes no probe from the others', async () => {
    const { smtp, webhook } = await startPeers(cleanups)
    // First the whole CRM is down; then it answers 500 to one body only.
    let down = true
    webhook.answer = (body) =>
      down || (body.data as { contactNumber?: string } | undefined)?.contactNumber === '1000'
        ? 500
        : undefined
    const running = await server({ smtpUrl: smtp.url, webhookUrl: webhook.url })
    await send(running, 1)
    await until(
      running,
      (requests) => (deliveriesOf(requests, 'webhook')[0]!.lastError ?? '') !== '',
    )
    await send(running, 3, 1)
    down = false
    // The next probe goes to one that met no fault yet, not to the oldest again: it goes
    // through, and so do the others.
    await expect
      .poll(() => posted(webhook, 'demo_request.created').length, { timeout: 10_000 })
      .toBe(3)
    const [first] = await running.requests()
    expect(posted(webhook, 'demo_request.created').map((each) => each.id)).not.toContain(first!.id)
  })
})
