// A store written before the one job queue upgrades in place, on SQLite and on PostgreSQL: its
// rows (written by main at 1b5d41d through its own code: testing/server/fixtures/
// make-store-040.mjs) are loaded into a store migrated up to 040 and opened with this version.
// Every request and delivery is there in its state, with its attempts, error and recipients;
// the notices and WhatsApp routes too; and the queue hands out the pending jobs only, each
// once, while the held ones wait for a person and the delivered and failed ones stay put: a
// server started on it mails and posts those, once, and nothing it had sent before.
// A store of main before escalations were jobs (9ac9d2a, testing/server/fixtures/
// make-store-060.mjs) has each pending escalation deadline turned into one job (migration 070):
// the due one is escalated once, the pending ones wait, and none that was read, moved on or
// exhausted is escalated again.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openLeadStore, type Job, type LeadStore, type StoredRequest } from './lead-store.js'
import { storeMigratedTo } from '../../testing/server/old-store.js'
import { startPeers, startSmtpPeer } from '../../testing/server/delivery-peers.js'
import { startDelivery } from '../../testing/server/delivery-harness.js'
import { rawDatabase } from '../../testing/server/store.js'
import { startCloudApi } from '../../testing/server/whatsapp-cloud.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { freshDatabase } from '../../testing/server/postgres.js'

type Row = Record<string, string | number | null>
interface Fixture {
  rows: Record<string, Row[]>
}

const fixture = JSON.parse(
  await readFile(new URL('../../testing/server/fixtures/store-040.json', import.meta.url), 'utf8'),
) as Fixture
const oldDeliveries = fixture.rows.lead_deliveries!
const oldNotices = fixture.rows.lead_notices!

const idOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
/** A delivery the old server held on a lease when it stopped: it runs on after the upgrade. */
const LEASED = { request_id: idOf(4), channel: 'webhook' }

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

type Target = { dataDir: string; databaseUrl: string | undefined }

/**
 * A fixture's rows in a store migrated up to the migration its version had, where this version
 * will open it; `then` changes the old store before it is closed.
 */
async function storeWritten(
  kind: 'sqlite' | 'postgres',
  written: Fixture,
  migration: string,
  then: (old: Kysely<Record<string, Row>>) => Promise<unknown> = async () => undefined,
): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), `gaspre-upgrade-${migration}-`))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const target = { dataDir, databaseUrl: kind === 'postgres' ? await freshDatabase() : undefined }
  const old = (await storeMigratedTo(target, migration)) as Kysely<Record<string, Row>>
  for (const [table, rows] of Object.entries(written.rows)) {
    if (rows.length > 0) await old.insertInto(table).values(rows).execute()
  }
  await then(old)
  await old.destroy()
  return target
}

/** The fixture's store, written at migration 040, one delivery still leased by its worker. */
const oldStore = (kind: 'sqlite' | 'postgres'): Promise<Target> =>
  storeWritten(kind, fixture, '040-whatsapp', (old) =>
    old
      .updateTable('lead_deliveries')
      .set({ locked_until: Date.now() + 3_600_000 })
      .where('request_id', '=', LEASED.request_id)
      .where('channel', '=', LEASED.channel)
      .execute(),
  )

/** The fixture's store, opened (and so upgraded) by this version. */
async function upgradedStore(kind: 'sqlite' | 'postgres'): Promise<LeadStore> {
  const target = await oldStore(kind)
  const store = await openLeadStore(target, { maxBytes: 1024 ** 3, largestRecordBytes: 0 })
  cleanups.push(() => store.close())
  return store
}

const listed = async (store: LeadStore): Promise<StoredRequest[]> => {
  const all: StoredRequest[] = []
  for await (const request of store.requests({ oldestFirst: true })) all.push(request)
  return all
}

/** Every job of every channel the queue hands out now, as `request channel` or `notice type`. */
async function claimAll(store: LeadStore): Promise<string[]> {
  const name = (job: Job) =>
    job.kind === 'request'
      ? `${job.record.id.slice(-2)} ${job.delivery.channel}`
      : `notice ${job.notice.type}`
  const jobs = await Promise.all(
    (['email', 'webhook', 'whatsapp'] as const).map((channel) =>
      store.queue.claim(channel, 100, 60_000),
    ),
  )
  return jobs.flat().map(name).sort()
}

describe.each(['sqlite', 'postgres'] as const)('a store of the old queue on %s', (kind) => {
  it('keeps every request and delivery in its state, with its attempts, error and recipients', async () => {
    const store = await upgradedStore(kind)
    const requests = await listed(store)
    expect(requests.map((request) => request.id).sort()).toEqual(
      fixture.rows.lead_requests!.map((row) => row.id).sort(),
    )
    const deliveries = requests.flatMap((request) => request.deliveries)
    expect(deliveries).toHaveLength(oldDeliveries.length)
    for (const old of oldDeliveries) {
      const now = deliveries.find(
        (each) => each.requestId === old.request_id && each.channel === old.channel,
      )
      expect(now).toMatchObject({
        state: old.state,
        attempts: old.attempts,
        lastError: old.last_error,
        deliveredAt: old.delivered_at,
        nextAttemptAt: Number(old.next_attempt_at),
        retryUntil: Number(old.retry_until),
        queuedAt: Number(old.queued_at),
        doneRecipients: JSON.parse(String(old.done_recipients ?? '[]')) as string[],
        refusedRecipients: JSON.parse(String(old.refused_recipients ?? '[]')) as string[],
      })
    }
    // The mail of request 4 went to one recipient and was refused by another: a retry goes on
    // from there.
    expect(
      deliveries.find((each) => each.requestId === idOf(4) && each.channel === 'email'),
    ).toMatchObject({ doneRecipients: ['ventas@gaspre.mx'], refusedRecipients: ['baja@gaspre.mx'] })
    expect(requests.filter((request) => request.held).map((request) => request.id)).toEqual([
      idOf(5),
      idOf(6),
    ])
    // Request 7's WhatsApp message went unread and moved on to the next rep.
    const seventh = requests.find((request) => request.id === idOf(7))!
    expect(seventh.whatsapp?.messages.map((message) => message.movedOnBecause)).toEqual([
      'unread',
      null,
    ])
  })

  it('hands out the pending jobs only, each once; held ones wait for a person', async () => {
    const store = await upgradedStore(kind)
    const pending = oldDeliveries
      .filter((row) => row.state === 'pending')
      .filter((row) => !(row.request_id === LEASED.request_id && row.channel === LEASED.channel))
      .map((row) => `${String(row.request_id).slice(-2)} ${row.channel}`)
    const pendingNotices = oldNotices
      .filter((row) => row.state === 'pending')
      .map((row) => `notice ${row.type}`)
    expect(pending.length).toBeGreaterThan(0)
    expect(await claimAll(store)).toEqual([...pending, ...pendingNotices].sort())
    // Claimed once: nothing is handed out twice while its lease runs.
    expect(await claimAll(store)).toEqual([])

    // Not even a probe of a failing channel takes a job another lease holds.
    expect(await store.queue.claim('webhook', 1, 60_000, { probe: true })).toEqual([])

    // The held requests go out once a person releases them, each delivery once.
    expect(await store.releaseHeldRequests()).toBe(2)
    expect(await claimAll(store)).toEqual(
      ['05', '06'].flatMap((n) => ['email', 'webhook', 'whatsapp'].map((c) => `${n} ${c}`)),
    )
    expect(await claimAll(store)).toEqual([])
  })

  it('keeps the notices of an outage once: one queued again for it is not added', async () => {
    const store = await upgradedStore(kind)
    const recovered = oldNotices.find((row) => row.type === 'delivery.recovered')!
    await store.queue.queueNotices(
      {
        type: 'delivery.recovered',
        subject: 'webhook',
        outage: Number(recovered.outage),
        data: { since: new Date().toISOString(), waiting: 0, reason: null },
      },
      ['email'],
    )
    const notices = (await store.queue.claim('email', 100, 60_000)).flatMap((job) =>
      job.kind === 'notice' ? [job.notice] : [],
    )
    expect(notices.map((notice) => notice.type).sort()).toEqual([
      'delivery.recovered',
      'demo_requests.held',
      'whatsapp.unread',
    ])
    const kept = notices.find((notice) => notice.type === 'delivery.recovered')!
    expect(kept).toMatchObject({
      id: recovered.id,
      subject: 'webhook',
      createdAt: recovered.created_at,
      data: JSON.parse(String(recovered.data)) as unknown,
    })
  })

  it('erases a request with its jobs, the WhatsApp notice that names it included', async () => {
    const store = await upgradedStore(kind)
    expect(await store.erasure.eraseRequests([idOf(7)])).toMatchObject({
      requests: 1,
      deliveries: 3,
    })
    const left = await claimAll(store)
    expect(left.filter((name) => name.startsWith('07') || name.includes('unread'))).toEqual([])
  })

  it('a running server sends the pending ones once, and none that went or failed before', async () => {
    const target = await oldStore(kind)
    const { smtp, webhook } = await startPeers(cleanups)
    const running = await startDelivery({
      kind,
      dist: dist.dist,
      ...target,
      smtpUrl: smtp.url,
      // ventas@ took request 4's mail before the upgrade: it goes to otra@ alone.
      mailTo: ['ventas@gaspre.mx', 'otra@gaspre.mx'],
      webhookUrl: webhook.url,
    })
    cleanups.push(() => running.close())
    const waiting = async () =>
      (await running.requests())
        .flatMap((request) => request.deliveries)
        .filter((delivery) => delivery.channel !== 'whatsapp' && delivery.state === 'pending')
        .map((delivery) => `${delivery.requestId.slice(-2)} ${delivery.channel}`)
    // What is left: the delivery another lease still holds (the WhatsApp lane is not set up).
    await expect.poll(waiting, { timeout: 20_000 }).toEqual(['04 webhook'])
    // Request 4's mail, refused for good by baja@ before the upgrade, is a dead letter now, and
    // told so by a notice of its own (decision 024): counted apart.
    const deadLetterNotice = (mail: (typeof smtp.mails)[number]) =>
      mail.headers.get('x-gaspre-notice') === 'delivery.dead_letter'
    const upgraded = () => smtp.mails.filter((mail) => !deadLetterNotice(mail))
    await expect.poll(() => upgraded().length, { timeout: 20_000 }).toBe(5)

    const sent = smtp.mails
      .map((mail, index) => ({
        id: String(mail.messageId).replace(/@.*$/, ''),
        to: smtp.envelopes[index],
        deadLetter: deadLetterNotice(mail),
      }))
      .filter((mail) => !mail.deadLetter)
    const noticeIds = oldNotices
      .filter((row) => row.state === 'pending')
      .map((row) => `<notice-${String(row.id)}`)
    expect(sent.map((mail) => mail.id).sort()).toEqual(
      [`<lead-${idOf(2)}`, `<lead-${idOf(4)}`, ...noticeIds].sort(),
    )
    expect(sent.find((mail) => mail.id === `<lead-${idOf(4)}`)?.to).toEqual(['otra@gaspre.mx'])
    expect(
      webhook.received
        .filter((posted) => posted.body.type === 'demo_request.created')
        .map((posted) => posted.id)
        .sort(),
    ).toEqual([idOf(2), idOf(3)])
    await expect
      .poll(
        () =>
          webhook.received
            .filter((posted) => posted.body.type === 'delivery.dead_letter')
            .map((posted) => (posted.body.data as { request: { requestId: string } }).request),
        { timeout: 20_000 },
      )
      .toEqual([expect.objectContaining({ requestId: idOf(4) })])
  })
})

const fixture060 = JSON.parse(
  await readFile(new URL('../../testing/server/fixtures/store-060.json', import.meta.url), 'utf8'),
) as Fixture
/** The routes the fixture's requests were stored with. */
const ROUTES_060 = '+52=+5215511111111,+5215522222222;*=+34600000000'

/** The 060 fixture's store, written at migration 060, where this version will open it. */
const storeOf060 = (kind: 'sqlite' | 'postgres'): Promise<Target> =>
  storeWritten(kind, fixture060, '060-idempotency-keys')

describe.each(['sqlite', 'postgres'] as const)('a store of escalation deadlines on %s', (kind) => {
  it('turns each pending deadline into one job, due when it was due', async () => {
    const target = await storeOf060(kind)
    const store = await openLeadStore(target, { maxBytes: 1024 ** 3, largestRecordBytes: 0 })
    cleanups.push(() => store.close())
    const jobs = await rawDatabase(store)
      .selectFrom('lead_jobs')
      .select(['id', 'next_attempt_at', 'state'])
      .where('kind', '=', 'escalation')
      .orderBy('id')
      .execute()
    const messages = fixture060.rows.lead_whatsapp_messages!
    const deadline = (n: number, step: number) =>
      Number(messages.find((row) => row.request_id === idOf(n) && row.step === step)!.escalate_at)
    // Request 1's is due, 2's and the second rep's of 4 wait; 3 was read, 4's first rep and
    // both of 5 moved on, 6 was never sent.
    expect(jobs.map((job) => [job.id, Number(job.next_attempt_at), job.state])).toEqual([
      [`${idOf(1)}/escalation/0`, deadline(1, 0), 'pending'],
      [`${idOf(2)}/escalation/0`, deadline(2, 0), 'pending'],
      [`${idOf(4)}/escalation/1`, deadline(4, 1), 'pending'],
    ])
    // Handed out when due, once while its lease runs.
    expect(await store.queue.claimEscalations(100, 60_000, Date.now())).toEqual([
      { requestId: idOf(1), step: 0 },
    ])
    expect(await store.queue.claimEscalations(100, 60_000, Date.now())).toEqual([])
    // Two posts of one early status are kept once.
    const early = await rawDatabase(store)
      .selectFrom('lead_whatsapp_early_statuses')
      .selectAll()
      .execute()
    expect(early.map((row) => [row.wamid, row.status])).toEqual([['wamid.ajeno', 'delivered']])
  })

  it('a running server escalates the due one once, and nothing it escalated before', async () => {
    const target = await storeOf060(kind)
    const smtp = await startSmtpPeer()
    const cloud = await startCloudApi()
    cleanups.push(
      () => smtp.close(),
      () => cloud.close(),
    )
    const running = await startDelivery({
      kind,
      dist: dist.dist,
      ...target,
      smtpUrl: smtp.url,
      whatsapp: { apiUrl: cloud.url, routes: ROUTES_060 },
    })
    cleanups.push(() => running.close())
    const unreadMails = () =>
      smtp.mails.filter((mail) => mail.headers.get('x-gaspre-notice') === 'whatsapp.unread')
    await expect.poll(() => unreadMails().length, { timeout: 20_000 }).toBe(1)
    // It answers the request's own mail, and says who has it now.
    expect(unreadMails()[0]!.subject).toBe('Re: Solicitud de demo n.º 1: Persona 1 (Grupo Norte)')
    expect(unreadMails()[0]!.text).toContain('Ahora se le envía a +5215522222222.')
    // Request 1 goes to its second rep; request 6, never sent, to its first.
    await expect
      .poll(() => cloud.messages.map((message) => [message.parameters[3], message.to]).sort(), {
        timeout: 20_000,
      })
      .toEqual([
        ['1', '5215522222222'],
        ['6', '5215522222222'],
      ])
    // Many polls later, still one: nothing escalated twice, nothing mailed again.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(unreadMails()).toHaveLength(1)
    expect(
      smtp.mails
        .filter((mail) => (mail.subject ?? '').startsWith('Solicitud'))
        .map((m) => m.subject),
    ).toEqual([expect.stringContaining('n.º 6')])
  })
})
