// Our own door (POST /api/demo-requests), as an own-server page and its retries meet it, on
// SQLite and on PostgreSQL: the answer is JSON; a refused field is told in the words the form
// shows beside it; an Idempotency-Key makes a retry get the first answer and store nothing
// twice, another request under the same key a 422, a retry while the first is stored a 409, and
// no key a 400; keys are forgotten after a day and hold nothing of the person.
import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { doorRefusals, refusals } from '../../src/contract/lead-server-text.js'
import { DOOR_PATH } from '../../src/contract/demo-request-fields.js'
import { demoForm } from '../../testing/content.js'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { DEMO_PARAMS, sendDemoRequest, sendToDoor } from '../../testing/server/demo-request.js'
import { makeFakeDist, OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'
import { fakeDistForThisFile, undoneAfterEach } from '../../testing/server/per-file.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { rawDatabase } from '../../testing/server/store.js'
import { KEY_KEPT_MS } from '../store/idempotency-keys.js'
import { fingerprint } from './door.js'

const REQUEST = {
  ...DEMO_PARAMS,
  message: 'Tenemos 14 estaciones en el Bajío.',
  contact_number: '4821',
  traffic_source: 'google / cpc',
}

const dist = fakeDistForThisFile()
const cleanups = undoneAfterEach()

type Started = AppOnStore & { deliveries(): Promise<number> }

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`our own door on ${kind}`, () => {
    async function start(options: Partial<Parameters<typeof appOnTemporaryStore>[0]> = {}) {
      const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
      const app = await appOnTemporaryStore({
        distDir: dist.dist,
        channels: ['email'],
        ...options,
        ...(databaseUrl !== undefined && { databaseUrl }),
      })
      cleanups.push(() => app.close())
      const started: Started = {
        ...app,
        deliveries: async () =>
          Number(
            (
              await rawDatabase(app.store)
                .selectFrom('lead_jobs')
                .where('kind', '=', 'delivery')
                .select((eb) => eb.fn.countAll<number | string>().as('count'))
                .executeTakeFirstOrThrow()
            ).count,
          ),
      }
      return started
    }
    /** What the store holds of one person (each test writes its own address). */
    const storedOf = async (app: AppOnStore, email: string) =>
      (await app.stored()).filter((request) => request.params.user_email === email)

    it('stores the request and answers JSON with its id; the e-mail service ids stay empty', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const response = await sendToDoor(
        app.request,
        { ...REQUEST, user_email: email },
        randomUUID(),
      )
      expect(response.status).toBe(200)
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      const [stored] = await storedOf(app, email)
      expect(JSON.parse(response.text)).toEqual({ id: stored!.id, status: 'stored' })
      expect(stored).toMatchObject({
        serviceId: '',
        templateId: '',
        params: { ...REQUEST, user_email: email },
      })
    })

    it('refuses a field with the words the form shows beside it, and stores nothing', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const noPhone: Record<string, string> = { ...REQUEST, user_email: email }
      delete noPhone.user_phone
      const cases = [
        [noPhone, { user_phone: demoForm.errors.required.user_phone }],
        [{ ...noPhone, user_phone: '55 12' }, { user_phone: demoForm.errors.phone }],
        [
          { ...noPhone, user_phone: '+52 55 1234 5678', user_email: 'ana@' },
          { user_email: demoForm.errors.email },
        ],
        [
          { ...noPhone, user_phone: '5512345678', user_name: 'A'.repeat(121) },
          { user_name: demoForm.errors.tooLong(120) },
        ],
      ] as const
      for (const [params, fields] of cases) {
        const response = await sendToDoor(app.request, params, randomUUID())
        expect(response.status).toBe(400)
        expect(JSON.parse(response.text)).toEqual({
          error: Object.values(fields).join(' '),
          fields,
        })
      }
      // Two fields at once: each is named, and the sentence says both.
      const both = await sendToDoor(app.request, { ...noPhone, user_group: ' ' }, randomUUID())
      expect(JSON.parse(both.text)).toEqual({
        error: `${demoForm.errors.required.user_phone} ${demoForm.errors.required.user_group}`,
        fields: {
          user_phone: demoForm.errors.required.user_phone,
          user_group: demoForm.errors.required.user_group,
        },
      })
      // What only a script sends is refused with the server's own sentences.
      const number = await sendToDoor(app.request, { ...REQUEST, user_group: 7 }, randomUUID())
      expect(JSON.parse(number.text)).toMatchObject({ error: refusals.notText })
      const unknown = await sendToDoor(app.request, { ...REQUEST, admin: 'sí' }, randomUUID())
      expect(JSON.parse(unknown.text)).toMatchObject({ error: refusals.malformed })
      expect(await storedOf(app, email)).toEqual([])
      expect(await app.deliveries()).toBe(0)
    })

    it('a retry with the same key gets the first answer again and stores and delivers nothing more', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const request = { ...REQUEST, user_email: email }
      const key = randomUUID()
      const first = await sendToDoor(app.request, request, key)
      const again = await sendToDoor(app.request, request, key)
      expect(again.status).toBe(first.status)
      expect(again.text).toBe(first.text)
      expect(await storedOf(app, email)).toHaveLength(1)
      expect(await app.deliveries()).toBe(1)
    })

    it('the same key with another request is refused with 422', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const key = randomUUID()
      expect((await sendToDoor(app.request, { ...REQUEST, user_email: email }, key)).status).toBe(
        200,
      )
      const other = await sendToDoor(
        app.request,
        { ...REQUEST, user_email: email, message: 'Mejor 15 estaciones.' },
        key,
      )
      expect(other.status).toBe(422)
      expect(JSON.parse(other.text)).toEqual({ error: doorRefusals.keyReused })
      expect(await storedOf(app, email)).toHaveLength(1)
    })

    it('a retry while the first is still being stored is told 409, then gets its answer', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const request = { ...REQUEST, user_email: email }
      const key = randomUUID()
      // The first, claimed and not yet answered (as another call or server holds it).
      expect(await app.store.claimIdempotencyKey(key, fingerprint(key, request))).toEqual({
        kind: 'claimed',
      })
      const retry = await sendToDoor(app.request, request, key)
      expect(retry.status).toBe(409)
      expect(retry.headers['retry-after']).toBe('1')
      expect(JSON.parse(retry.text)).toEqual({ error: doorRefusals.inFlight })
      expect(await storedOf(app, email)).toEqual([])
    })

    it('a request without a key is refused with 400 and a sentence; a refusal frees its key', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const missing = await sendToDoor(app.request, { ...REQUEST, user_email: email }, null)
      expect(missing.status).toBe(400)
      expect(JSON.parse(missing.text)).toEqual({ error: doorRefusals.missingKey })
      const bad = await sendToDoor(app.request, { ...REQUEST, user_email: email }, null, {
        headers: { 'idempotency-key': '"a"b"' },
      })
      expect(JSON.parse(bad.text)).toEqual({ error: doorRefusals.badKey })
      // The visitor mends the phone and sends the same draft, with the same key.
      const key = randomUUID()
      const refused = await sendToDoor(
        app.request,
        { ...REQUEST, user_email: email, user_phone: '12' },
        key,
      )
      expect(refused.status).toBe(400)
      const mended = await sendToDoor(app.request, { ...REQUEST, user_email: email }, key)
      expect(mended.status).toBe(200)
      expect(await storedOf(app, email)).toHaveLength(1)
    })

    it('keeps a key a day, then forgets it; the key holds nothing of the person, nor after an erasure', async () => {
      const app = await start()
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const key = randomUUID()
      const request = { ...REQUEST, user_email: email }
      await sendToDoor(app.request, request, key)
      const rows = await rawDatabase(app.store)
        .selectFrom('lead_idempotency_keys')
        .selectAll()
        .execute()
      // The key, a hash of the request, two times, the answer and the request's id, each checked
      // for what it is: looking for the person's values in the text would find '4821' in the
      // random hex of a hash or an id now and then.
      expect(rows).toEqual([
        {
          key,
          fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
          created_at: expect.anything(),
          claimed_until: null,
          status: 200,
          answer: expect.any(String),
          request_id: expect.any(String),
        },
      ])
      const { answer, request_id: id } = rows[0]!
      expect(JSON.parse(answer!)).toEqual({ id, status: 'stored' })

      // Almost a day later, the retry is still the first request.
      const dayAgo = Date.now() - KEY_KEPT_MS
      await rawDatabase(app.store)
        .updateTable('lead_idempotency_keys')
        .set({ created_at: dayAgo + 60_000 })
        .where('key', '=', key)
        .execute()
      const other = { ...request, message: 'Otra cosa.' }
      expect((await sendToDoor(app.request, other, key)).status).toBe(422)
      expect(await app.store.pruneIdempotencyKeys()).toBe(0)
      // A day and a minute: forgotten, and the key names a new request.
      await rawDatabase(app.store)
        .updateTable('lead_idempotency_keys')
        .set({ created_at: dayAgo - 60_000 })
        .where('key', '=', key)
        .execute()
      expect((await sendToDoor(app.request, other, key)).status).toBe(200)
      expect(await storedOf(app, email)).toHaveLength(2)
      expect(await app.store.pruneIdempotencyKeys(Date.now() + KEY_KEPT_MS + 1)).toBe(1)

      // An erasure takes the request's key with it.
      const secondKey = randomUUID()
      await sendToDoor(app.request, { ...request, message: 'Tercera.' }, secondKey)
      await app.store.erasure.eraseRequests((await storedOf(app, email)).map((stored) => stored.id))
      expect(
        await rawDatabase(app.store).selectFrom('lead_idempotency_keys').selectAll().execute(),
      ).toEqual([])
    })

    it('stands behind the same guards as the e-mail service endpoint, which still answers', async () => {
      const app = await start({ limits: { rateLimitPerMinute: 2 } })
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const crossSite = await sendToDoor(
        app.request,
        { ...REQUEST, user_email: email },
        randomUUID(),
        {
          headers: { 'sec-fetch-site': 'cross-site' },
        },
      )
      expect(crossSite.status).toBe(403)
      expect(JSON.parse(crossSite.text)).toEqual({ error: refusals.crossSite })
      const old = await sendDemoRequest(app.request, { ...DEMO_PARAMS, user_email: email })
      expect([old.status, old.text]).toEqual([200, 'OK'])
      await sendToDoor(app.request, { ...REQUEST, user_email: email }, randomUUID())
      // One budget per client for both doors: the third is one too many.
      const limited = await sendToDoor(app.request, { ...REQUEST, user_email: email }, randomUUID())
      expect(limited.status).toBe(429)
      expect(JSON.parse(limited.text)).toEqual({ error: doorRefusals.rateLimited })
      // The body limit of both doors (on a server of its own: the budget above is spent).
      const other = await start()
      const large = await other.request(DOOR_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': '"k"' },
        body: JSON.stringify({ message: 'x'.repeat(60 * 1024) }),
      })
      expect(large.status).toBe(413)
      expect(JSON.parse(large.text)).toEqual({ error: doorRefusals.tooLarge })
    })

    it('a full store is told as 507, in Spanish, and the key is free for the retry', async () => {
      // A store already at its cap: an empty one's size.
      const empty = await start()
      const app = await start({ limits: { outboxMaxBytes: await empty.store.bytes() } })
      const email = `ana-${randomUUID()}@gasolinera.mx`
      const key = randomUUID()
      const full = await sendToDoor(app.request, { ...REQUEST, user_email: email }, key)
      expect(full.status).toBe(507)
      expect(JSON.parse(full.text)).toEqual({ error: doorRefusals.storeFull })
      expect(
        await rawDatabase(app.store).selectFrom('lead_idempotency_keys').selectAll().execute(),
      ).toEqual([])
    })
  })
}

describe('our own door, two servers on one PostgreSQL', () => {
  it('agree on a key: the retry to the other server waits (409), is refused with another body (422), then gets the first answer', async () => {
    const databaseUrl = await freshDatabase()
    let arrived!: () => void
    const reached = new Promise<void>((resolve) => (arrived = resolve))
    let letGo!: () => void
    const gate = new Promise<void>((resolve) => (letGo = resolve))
    // The first server is slow to store: it waits inside the request's transaction.
    const first = await appOnTemporaryStore({
      distDir: dist.dist,
      databaseUrl,
      channels: ['email'],
    })
    cleanups.push(() => first.close())
    const append = first.store.append.bind(first.store)
    first.store.append = (record, channels, routeFor, alsoWrite) =>
      append(record, channels, routeFor, async (trx, stored) => {
        arrived()
        await gate
        await alsoWrite?.(trx, stored)
      })
    const second = await appOnTemporaryStore({
      distDir: dist.dist,
      databaseUrl,
      channels: ['email'],
    })
    cleanups.push(() => second.close())
    const email = `ana-${randomUUID()}@gasolinera.mx`
    const request = { ...REQUEST, user_email: email }
    const key = randomUUID()

    const firstAnswer = sendToDoor(first.request, request, key)
    await reached
    const meanwhile = await sendToDoor(second.request, request, key)
    expect(meanwhile.status).toBe(409)
    const otherBody = await sendToDoor(second.request, { ...request, message: 'Otra.' }, key)
    expect(otherBody.status).toBe(422)
    letGo()
    const answered = await firstAnswer
    expect(answered.status).toBe(200)
    const retry = await sendToDoor(second.request, request, key)
    expect([retry.status, retry.text]).toEqual([200, answered.text])
    const stored = (await second.stored()).filter((one) => one.params.user_email === email)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.deliveries).toHaveLength(1)
  })
})

describe('a build made before the door', () => {
  it('has no door (its page sends to the e-mail service endpoint, which answers)', async () => {
    const old = await makeFakeDist({ ...OWN_SERVER_BUILD, formMessages: null })
    cleanups.push(() => rm(old.root, { recursive: true, force: true }))
    const app = await appOnTemporaryStore({ distDir: old.dist })
    cleanups.push(() => app.close())
    expect((await sendToDoor(app.request, REQUEST, randomUUID())).status).toBe(404)
    expect((await sendDemoRequest(app.request)).status).toBe(200)
  })
})
