// Delivery to people, against real peers started here: every request mailed (SMTP) and posted
// (a signed webhook) once with every field; retried past a 451 and a 503; a 550 and a 410 are
// dead letters at once, each channel on its own; a dead letter re-sent carries the same
// Message-ID and webhook-id. On SQLite and on PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from './app.js'
import { ConfigError, readConfig, type DeliveryConfig } from './config.js'
import { DeliveryWorker, backoffMs, deliveryChannels, messageIdOf } from './delivery.js'
import { LARGEST_RECORD_BYTES } from './demo-request-check.js'
import { openLeadStore, type LeadStore, type StoredRequest } from './lead-store.js'
import { makeFakeDist, type FakeDist } from '../testing/server/fake-dist.js'
import {
  WEBHOOK_SECRET,
  startSmtpPeer,
  startWebhookPeer,
  type SmtpPeer,
  type WebhookPeer,
} from '../testing/server/delivery-peers.js'
import { sendDemoRequest } from '../testing/server/demo-request.js'
import { freshDatabase } from '../testing/server/postgres.js'

const VISITOR = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Norte',
  message: 'Quiero una demo.\nTenemos 12 estaciones.',
  contact_number: '48213',
  utm_source: 'google',
  utm_campaign: 'estaciones-2026',
}

let dist: FakeDist
let smtp: SmtpPeer
let webhook: WebhookPeer
const cleanups: (() => Promise<unknown>)[] = []

beforeAll(async () => {
  dist = await makeFakeDist()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  await rm(dist.root, { recursive: true, force: true })
})

interface Running {
  store: LeadStore
  url: string
  app: FastifyInstance
  worker: DeliveryWorker
  log: Record<string, unknown>[]
}

async function start(kind: 'sqlite' | 'postgres', mailTo = ['ventas@gaspre.mx']): Promise<Running> {
  smtp = await startSmtpPeer()
  webhook = await startWebhookPeer()
  cleanups.push(
    () => smtp.close(),
    () => webhook.close(),
  )
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-delivery-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
  const store = await openLeadStore(
    { dataDir, databaseUrl },
    { maxBytes: 1024 ** 3, largestRecordBytes: LARGEST_RECORD_BYTES },
  )
  cleanups.push(() => store.close())
  const delivery: DeliveryConfig = {
    email: { smtpUrl: smtp.url, to: mailTo, from: 'GASPRE <avisos@gaspre.mx>' },
    webhook: { url: webhook.url, secret: WEBHOOK_SECRET },
    timeZone: 'America/Mexico_City',
  }
  const worker = new DeliveryWorker(store, delivery, { pollMs: 50, firstBackoffMs: 50 })
  const log: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line !== '') log.push(JSON.parse(line) as Record<string, unknown>)
      }
      done()
    },
  })
  const app = buildApp({
    distDir: dist.dist,
    dataDir,
    store,
    deliveryChannels: deliveryChannels(delivery),
    onStored: () => worker.kick(),
    logger: { level: 'info', stream },
  })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  worker.start(app.log)
  cleanups.push(async () => {
    await app.close()
    await worker.stop()
  })
  return { store, url, app, worker, log }
}

async function settled(store: LeadStore): Promise<StoredRequest[]> {
  const all: StoredRequest[] = []
  await expect
    .poll(
      async () => {
        all.length = 0
        for await (const request of store.requests()) all.push(request)
        return all.every((request) => request.deliveries.every((d) => d.state !== 'pending'))
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true)
  return all
}

describe.each(['sqlite', 'postgres'] as const)('delivery on %s', (kind) => {
  it('mails and posts each request once, with every field, in Spanish', async () => {
    const { store, url } = await start(kind)
    expect((await sendDemoRequest(url, VISITOR)).status).toBe(200)
    const [request] = await settled(store)
    expect(request!.deliveries.map((d) => [d.channel, d.state, d.attempts])).toEqual([
      ['email', 'delivered', 1],
      ['webhook', 'delivered', 1],
    ])

    expect(smtp.mails).toHaveLength(1)
    const mail = smtp.mails[0]!
    expect(mail.subject).toBe('Solicitud de demo n.º 48213: Ana López (Grupo Norte)')
    expect(mail.messageId).toBe(messageIdOf(request!.id, 'avisos@gaspre.mx'))
    expect(mail.messageId).toBe(`<lead-${request!.id}@gaspre.mx>`)
    expect(mail.replyTo?.value).toEqual([{ name: 'Ana López', address: 'ana@gasolinera.mx' }])
    expect(mail.from?.value).toEqual([{ name: 'GASPRE', address: 'avisos@gaspre.mx' }])
    const text = mail.text ?? ''
    for (const line of [
      'Nombre: Ana López',
      'Correo: ana@gasolinera.mx',
      'Teléfono: +52 55 1234 5678',
      'Grupo o estación: Grupo Norte',
      '  Quiero una demo.',
      '  Tenemos 12 estaciones.',
      'Número de contacto: 48213',
      'Campaña: utm_source=google · utm_campaign=estaciones-2026',
      'Llamar: tel:+525512345678',
      'WhatsApp: https://wa.me/525512345678',
      `Id de la solicitud: ${request!.id}`,
    ]) {
      expect(text).toContain(line)
    }
    expect(text).toMatch(
      /Recibida: \p{L}+, \d+ de \p{L}+ de 20\d\d, \d\d:\d\d \(hora de America\/Mexico_City\)/u,
    )
    const html = typeof mail.html === 'string' ? mail.html : ''
    expect(html).toContain('<a href="tel:+525512345678">Llamar</a>')
    expect(html).toContain('<a href="https://wa.me/525512345678">Escribir por WhatsApp</a>')
    expect(html).toContain('Quiero una demo.<br>Tenemos 12 estaciones.')

    expect(webhook.received).toHaveLength(1)
    const posted = webhook.received[0]!
    expect(posted.id).toBe(request!.id)
    expect(posted.body).toEqual({
      type: 'demo_request.created',
      timestamp: request!.receivedAt,
      data: {
        id: request!.id,
        receivedAt: request!.receivedAt,
        name: 'Ana López',
        email: 'ana@gasolinera.mx',
        phone: '+52 55 1234 5678',
        group: 'Grupo Norte',
        message: 'Quiero una demo.\nTenemos 12 estaciones.',
        contactNumber: '48213',
        trafficSource: null,
        campaign: { utm_source: 'google', utm_campaign: 'estaciones-2026' },
        params: VISITOR,
      },
    })
    // The receiver verified the signature: an unsigned or tampered post would be a 401.
    expect(webhook.attempts).toEqual([{ id: request!.id, status: 204 }])
  })

  it('retries a 451 and a 503 until delivered, and logs the failing channel once', async () => {
    const { store, url, log } = await start(kind)
    smtp.failNext = 3
    webhook.failNext = 2
    for (let i = 0; i < 3; i++) {
      expect((await sendDemoRequest(url, { ...VISITOR, contact_number: `${i}` })).status).toBe(200)
    }
    const requests = await settled(store)
    expect(requests.flatMap((r) => r.deliveries.map((d) => d.state))).toEqual(
      Array(6).fill('delivered'),
    )
    expect(smtp.mails.map((mail) => mail.messageId).sort()).toEqual(
      requests.map((r) => `<lead-${r.id}@gaspre.mx>`).sort(),
    )
    expect(smtp.attempts).toBe(6)
    expect(webhook.received.map((p) => p.id).sort()).toEqual(requests.map((r) => r.id).sort())
    expect(webhook.attempts.filter((a) => a.status === 503)).toHaveLength(2)
    const events = log.map((line) => `${String(line.event)} ${String(line.channel)}`)
    expect(events.filter((e) => e === 'delivery-failing email')).toHaveLength(1)
    expect(events.filter((e) => e === 'delivery-recovered email')).toHaveLength(1)
    expect(events.filter((e) => e === 'delivery-failing webhook')).toHaveLength(1)
    expect(events.filter((e) => e === 'delivery-recovered webhook')).toHaveLength(1)
  })

  it('a 550 and a 410 are dead letters at once, each channel on its own; re-sent, they arrive', async () => {
    const { store, url, log } = await start(kind, ['nadie@gaspre.mx'])
    smtp.rejected.add('nadie@gaspre.mx')
    webhook.failNext = 1
    webhook.failStatus = 410
    expect((await sendDemoRequest(url, VISITOR)).status).toBe(200)
    const [request] = await settled(store)
    const [email, hook] = request!.deliveries
    expect(email).toMatchObject({ channel: 'email', state: 'failed', attempts: 1 })
    expect(email!.lastError).toMatch(/^SMTP 550/)
    expect(hook).toMatchObject({ channel: 'webhook', state: 'failed', attempts: 1 })
    expect(hook!.lastError).toBe('HTTP 410')
    expect(log.filter((line) => line.event === 'delivery-dead-letter')).toHaveLength(2)

    // Listed as failed; re-sent once the address is mended, with the same ids.
    const failed = []
    for await (const each of store.requests({ failedOnly: true })) failed.push(each.id)
    expect(failed).toEqual([request!.id])
    smtp.rejected.clear()
    expect(await store.resendFailed(request!.id)).toBe(2)
    const [resent] = await settled(store)
    expect(resent!.deliveries.map((d) => d.state)).toEqual(['delivered', 'delivered'])
    expect(smtp.mails.map((mail) => mail.messageId)).toEqual([`<lead-${request!.id}@gaspre.mx>`])
    expect(webhook.received.map((posted) => posted.id)).toEqual([request!.id])
  })
})

describe('delivery settings', () => {
  const base = { DATA_DIR: '/srv/data' }
  it('are read as channels, with the time zone defaulting to Mexico City', () => {
    const config = readConfig(
      {
        ...base,
        SMTP_URL: 'smtps://avisos%40gaspre.mx:clave@smtp.example.com:465',
        LEADS_MAIL_TO: 'ventas@gaspre.mx, direccion@gaspre.mx',
        LEADS_MAIL_FROM: 'GASPRE <avisos@gaspre.mx>',
        LEADS_WEBHOOK_URL: 'https://crm.example.com/hooks/leads',
        LEADS_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
      '/',
    )
    expect(config.delivery).toEqual({
      email: {
        smtpUrl: 'smtps://avisos%40gaspre.mx:clave@smtp.example.com:465',
        to: ['ventas@gaspre.mx', 'direccion@gaspre.mx'],
        from: 'GASPRE <avisos@gaspre.mx>',
      },
      webhook: { url: 'https://crm.example.com/hooks/leads', secret: WEBHOOK_SECRET },
      timeZone: 'America/Mexico_City',
    })
    expect(deliveryChannels(config.delivery)).toEqual(['email', 'webhook'])
    expect(deliveryChannels(readConfig(base, '/').delivery)).toEqual([])
  })

  it.each([
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ SMTP_URL: 'smtp://mail.example.com' }, /^LEADS_MAIL_TO must be set when SMTP_URL is/],
    [{ LEADS_MAIL_TO: 'ventas@gaspre.mx' }, /^SMTP_URL must be set when LEADS_MAIL_TO is/],
    [{ LEADS_MAIL_TO: 'ventas' }, /^LEADS_MAIL_TO must be e-mail addresses/],
    [{ LEADS_WEBHOOK_URL: 'https://crm.example.com' }, /^LEADS_WEBHOOK_SECRET must be set/],
    [{ LEADS_WEBHOOK_SECRET: 'abc' }, /^LEADS_WEBHOOK_SECRET must be whsec_ followed by/],
    [{ LEADS_WEBHOOK_URL: 'ftp://crm' }, /^LEADS_WEBHOOK_URL must be an http:\/\/ or https:\/\//],
    [{ LEADS_TIME_ZONE: 'Mexico' }, /^LEADS_TIME_ZONE must be an IANA time zone/],
    [{ DATABASE_URL: 'mysql://db/leads' }, /^DATABASE_URL must be a postgres:\/\//],
  ])('%o stops the start with a line naming the variable', (env, line) => {
    expect(() => readConfig({ ...base, ...env }, '/')).toThrow(ConfigError)
    expect(() => readConfig({ ...base, ...env }, '/')).toThrow(line)
  })

  it('backs off exponentially with jitter, from seconds up to five minutes', () => {
    expect(backoffMs(1, 0)).toBe(1_000)
    expect(backoffMs(1, 1)).toBe(2_000)
    expect(backoffMs(3, 1)).toBe(8_000)
    expect(backoffMs(30, 1)).toBe(300_000)
    expect(backoffMs(30, 0)).toBe(150_000)
  })
})
