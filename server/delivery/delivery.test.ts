// Delivery to people, against real peers started here: every request mailed (SMTP) and posted
// (a signed webhook) once with every field; a 451 for the mail retried, a 503 that holds the
// webhook until it answers; a recipient refused for good and a body refused (422) while others
// go through are dead letters, each channel on its own, and re-sent they carry the same
// Message-ID and webhook-id. On SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../settings/config.js'
import { backoffMs, deliveryChannels } from './worker.js'
import { messageIdOf } from '../channels/mail/mail-sender.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import {
  type SmtpPeer,
  startPeers,
  WEBHOOK_SECRET,
  type WebhookPeer,
} from '../../testing/server/delivery-peers.js'
import {
  events,
  settled,
  startDelivery,
  type RunningDelivery,
} from '../../testing/server/delivery-harness.js'
import { sendDemoRequest } from '../../testing/server/demo-request.js'

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

const dist = fakeDistForThisFile()
let smtp: SmtpPeer
let webhook: WebhookPeer
const cleanups = undoneAfterEach()

async function start(
  kind: 'sqlite' | 'postgres',
  mailTo = ['ventas@gaspre.mx'],
): Promise<RunningDelivery> {
  const peers = await startPeers(cleanups)
  smtp = peers.smtp
  webhook = peers.webhook
  const running = await startDelivery({
    kind,
    dist: dist.dist,
    smtpUrl: smtp.url,
    mailTo,
    webhookUrl: webhook.url,
  })
  cleanups.push(() => running.close())
  return running
}

describe.each(['sqlite', 'postgres'] as const)('delivery on %s', (kind) => {
  it('mails and posts each request once, with every field, in Spanish', async () => {
    const running = await start(kind)
    expect((await sendDemoRequest(running.request, VISITOR)).status).toBe(200)
    const [request] = await settled(running)
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
    expect(html).toContain('Quiero una demo.<br/>Tenemos 12 estaciones.')

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
        phoneE164: '+525512345678',
        group: 'Grupo Norte',
        message: 'Quiero una demo.\nTenemos 12 estaciones.',
        contactNumber: '48213',
        trafficSource: null,
        campaign: { utm_source: 'google', utm_campaign: 'estaciones-2026' },
        whatsapp: null,
        params: VISITOR,
      },
    })
    // The receiver verified the signature: an unsigned or tampered post would be a 401.
    expect(webhook.attempts).toEqual([{ id: request!.id, status: 204 }])
  })

  it('retries a 451 for the mail, holds the webhook through a 503, and delivers each once', async () => {
    const running = await start(kind)
    smtp.failNext = 3
    webhook.failNext = 2
    for (let i = 0; i < 3; i++) {
      const sent = await sendDemoRequest(running.request, { ...VISITOR, contact_number: `${i}` })
      expect(sent.status).toBe(200)
    }
    const requests = await settled(running)
    expect(requests.flatMap((r) => r.deliveries.map((d) => d.state))).toEqual(
      Array(6).fill('delivered'),
    )
    expect(smtp.mails.map((mail) => mail.messageId).sort()).toEqual(
      requests.map((r) => `<lead-${r.id}@gaspre.mx>`).sort(),
    )
    expect(smtp.attempts).toBe(6)
    expect(webhook.received.map((p) => p.id).sort()).toEqual(requests.map((r) => r.id).sort())
    expect(webhook.attempts.filter((a) => a.status === 503)).toHaveLength(2)
    // A 451 is this mail's own (it reached the end of DATA); a 503 is the receiver's.
    const said = events(running.log)
    expect(said.filter((e) => e === 'delivery-failing email')).toHaveLength(0)
    expect(said.filter((e) => e === 'delivery-failing webhook')).toHaveLength(1)
    expect(said.filter((e) => e === 'delivery-recovered webhook')).toHaveLength(1)
    expect(said.filter((e) => e.startsWith('delivery-dead-letter'))).toHaveLength(0)
  })

  it('a recipient refused for good and a body refused with 422 are dead letters; re-sent, they arrive', async () => {
    const running = await start(kind, ['ventas@gaspre.mx', 'nadie@gaspre.mx'])
    smtp.rejected.add('nadie@gaspre.mx')
    webhook.answer = (body) =>
      (body.data as { contactNumber?: string }).contactNumber === '99999' ? 422 : undefined
    expect((await sendDemoRequest(running.request, VISITOR)).status).toBe(200)
    expect(
      (await sendDemoRequest(running.request, { ...VISITOR, contact_number: '99999' })).status,
    ).toBe(200)
    const [first, second] = await settled(running)
    // The requests' own mails and posts (each dead letter is told by notices too, below).
    const requestEnvelopes = () =>
      smtp.envelopes.filter((_, i) => String(smtp.mails[i]!.messageId).startsWith('<lead-'))
    const requestPosts = () =>
      webhook.received.filter((posted) => posted.body.type === 'demo_request.created')
    // The mail went to ventas@ each time; nadie@ refused it: that recipient's dead letter.
    expect(requestEnvelopes()).toEqual([['ventas@gaspre.mx'], ['ventas@gaspre.mx']])
    for (const request of [first!, second!]) {
      const email = request.deliveries.find((d) => d.channel === 'email')!
      expect(email).toMatchObject({
        state: 'failed',
        doneRecipients: ['ventas@gaspre.mx'],
        refusedRecipients: ['nadie@gaspre.mx'],
      })
      expect(email.lastError).toMatch(/^rechazado para nadie@gaspre\.mx: SMTP 550/)
    }
    // The body the CRM refused while it took the other one: that request's dead letter only.
    expect(first!.deliveries.find((d) => d.channel === 'webhook')!.state).toBe('delivered')
    const refused = second!.deliveries.find((d) => d.channel === 'webhook')!
    expect(refused).toMatchObject({ state: 'failed' })
    expect(refused.lastError).toMatch(/^HTTP 422/)
    const deadLetters = running.log.filter((line) => line.event === 'delivery-dead-letter')
    expect(deadLetters.map((line) => line.channel).sort()).toEqual(['email', 'email', 'webhook'])
    expect(events(running.log).filter((e) => e.startsWith('delivery-failing'))).toEqual([])
    // Each dead letter is named in one notice, here on the webhook.
    await expect
      .poll(
        () =>
          webhook.received
            .filter((posted) => posted.body.type === 'delivery.dead_letter')
            .map((posted) => (posted.body.data as { channel: string }).channel)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['email', 'email', 'webhook'])
    // Every channel still delivers: the health check stays 200 and counts what waits for a person.
    expect(await running.health()).toMatchObject({
      status: 200,
      body: { status: 'ok', deadLetters: 3, held: 0 },
    })

    // Mended and re-sent: the mail goes to nadie@ alone, the post again, with the same ids.
    smtp.rejected.clear()
    webhook.answer = () => undefined
    expect(await running.store.queue.resendFailed(second!.id)).toBe(2)
    await settled(running)
    expect(requestEnvelopes().at(-1)).toEqual(['nadie@gaspre.mx'])
    expect(
      smtp.mails.filter((mail) => String(mail.messageId).startsWith('<lead-')).at(-1)!.messageId,
    ).toBe(`<lead-${second!.id}@gaspre.mx>`)
    expect(requestPosts().map((posted) => posted.id)).toEqual([first!.id, second!.id])
    expect((await running.health()).body).toMatchObject({ deadLetters: 1 })
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
      alertAfterMs: 600_000,
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
