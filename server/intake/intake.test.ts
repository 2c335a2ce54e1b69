// The demo-request intake (the e-mail sending API's protocol on our own origin) and its store, on SQLite and on PostgreSQL.
import { rm } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ServerLimits } from './limits.js'
import { refusals } from '../../src/contract/lead-server-text.js'
import { MAX_LENGTH } from '../../src/contract/demo-request.js'
import { SEND_FORM_PATH, SEND_PATH } from './demo-intake.js'
import type { DemoRequestRecord } from '../store/record.js'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { OWN_SERVER_BUILD, makeFakeDist, type FakeDist } from '../../testing/server/fake-dist.js'
import { fakeDistForThisFile } from '../../testing/server/per-file.js'
import { multipartBody } from '../../testing/server/demo-request.js'
import { freshDatabase } from '../../testing/server/postgres.js'
import { assertNoLeak, assertSecurityHeaders } from '../../testing/server/serving-checks.js'

const PARAMS = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Norte',
  message: 'Quiero una demo.\nGracias',
  utm_source: 'google',
}

const sendBody = (params: Record<string, unknown> = PARAMS, overrides: object = {}) => ({
  lib_version: '4.4.1',
  user_id: 'local-public-key',
  service_id: 'service_local',
  template_id: 'template_demo',
  template_params: params,
  ...overrides,
})

const dist = fakeDistForThisFile()
let site: AppOnStore

async function startApp(
  kind: 'sqlite' | 'postgres',
  options: { limits?: Partial<ServerLimits> } = {},
): Promise<void> {
  const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
  site = await appOnTemporaryStore({
    distDir: dist.dist,
    ...(databaseUrl !== undefined && { databaseUrl }),
    ...options,
  })
}

const postJson = (body: unknown, path = SEND_PATH) =>
  site.request(path, {
    method: 'POST',
    // Spelled as the SDK spells it.
    headers: { 'Content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

/** Posts a form as sendForm does: multipart, encoded by the platform. */
const postForm = async (form: FormData) => {
  const { type, body } = await multipartBody(form)
  return site.request(SEND_FORM_PATH, { method: 'POST', headers: { 'content-type': type }, body })
}

const stored = async (): Promise<DemoRequestRecord[]> => {
  const records: DemoRequestRecord[] = []
  for await (const { id, receivedAt, serviceId, templateId, params } of site.store.requests({
    oldestFirst: true,
  })) {
    records.push({ id, receivedAt, serviceId, templateId, params })
  }
  return records
}

describe.each(['sqlite', 'postgres'] as const)('the intake (own-server mode, %s)', (kind) => {
  beforeEach(() => startApp(kind))
  afterEach(async () => {
    await site.close()
  })

  it('send (JSON) answers 200 OK and stores exactly one record with every param', async () => {
    const res = await postJson(sendBody({ ...PARAMS, contact_number: '4821' }))
    expect(res.status).toBe(200)
    expect(res.text).toBe('OK')
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.headers['cache-control']).toBe('no-store')
    assertSecurityHeaders(res, OWN_SERVER_BUILD, 'send')
    const records = await stored()
    expect(records).toHaveLength(1)
    const [record] = records as [DemoRequestRecord]
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(record.receivedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(record.serviceId).toBe('service_local')
    expect(record.templateId).toBe('template_demo')
    expect(record.params).toEqual({ ...PARAMS, contact_number: '4821' })
  })

  it('send-form (multipart form data, as sendForm posts it) is accepted', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries(PARAMS)) form.append(name, value)
    form.append('lib_version', '4.4.1')
    form.append('service_id', 'service_local')
    form.append('template_id', 'template_demo')
    form.append('user_id', 'local-public-key')
    const res = await postForm(form)
    expect(res.status).toBe(200)
    expect(res.text).toBe('OK')
    const records = await stored()
    expect(records).toHaveLength(1)
    expect(records[0]?.params).toEqual(PARAMS)
    expect(records[0]?.serviceId).toBe('service_local')
  })

  it('a missing public key, service id or template id is a 400 with one sentence', async () => {
    const cases: [object, RegExp][] = [
      [{ user_id: undefined }, /Public Key is required/],
      [{ user_id: '' }, /Public Key is required/],
      [{ service_id: undefined }, /service ID is required/],
      [{ template_id: 7 }, /template ID is required/],
    ]
    for (const [overrides, message] of cases) {
      const res = await postJson(sendBody(PARAMS, overrides))
      expect(res.status, JSON.stringify(overrides)).toBe(400)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.text).toMatch(message)
    }
    const form = new FormData()
    form.append('user_name', 'x')
    form.append('user_id', 'k')
    const res = await postForm(form)
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/service ID is required/)
    expect(await stored()).toEqual([])
  })

  it('template params that are not an object of plain values are a 400', async () => {
    for (const params of [[1, 2], 'text', 5]) {
      const res = await postJson(sendBody({}, { template_params: params }))
      expect(res.status, JSON.stringify(params)).toBe(400)
      expect(res.text).toMatch(/template params must be an object/)
    }
    const nested = await postJson(sendBody({ user_email: 'a@b.mx', extra: { x: 1 } }))
    expect(nested.status).toBe(400)
    expect(nested.text).toBe(refusals.notText)
    expect(await stored()).toEqual([])
  })

  it('malformed JSON is a 400 with a text body', async () => {
    for (const body of ['{"user_id": "k",', '', 'null', '[]', '{"__proto__": {"polluted": 1}}']) {
      const res = await postJson(body)
      expect(res.status, body).toBe(400)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      assertNoLeak(res, body)
    }
    expect(await stored()).toEqual([])
  })

  it('a body over 50 KB is a 413 with a text body', async () => {
    const big = sendBody({ ...PARAMS, message: 'x'.repeat(51 * 1024) })
    const res = await postJson(big)
    expect(res.status).toBe(413)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.text).toMatch(/too large/)
    assertSecurityHeaders(res, OWN_SERVER_BUILD, '413')
    const form = new FormData()
    form.append('message', 'y'.repeat(60 * 1024))
    const formRes = await postForm(form)
    expect(formRes.status).toBe(413)
    expect(await stored()).toEqual([])
  })

  it('a wrong content type is a 415 with a text body', async () => {
    const json = JSON.stringify(sendBody())
    const cases: [string, string | undefined][] = [
      [SEND_PATH, 'text/plain'],
      [SEND_PATH, 'application/x-www-form-urlencoded'],
      [SEND_PATH, undefined],
      [SEND_FORM_PATH, 'application/json'],
      [SEND_FORM_PATH, 'text/plain'],
    ]
    for (const [path, type] of cases) {
      const res = await site.request(path, {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        body: json,
      })
      expect(res.status, `${path} ${type}`).toBe(415)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.text).toMatch(/Unsupported content type/)
    }
    expect(await stored()).toEqual([])
  })

  it('malformed multipart data is a 400', async () => {
    const res = await site.request(SEND_FORM_PATH, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      body: '--zzz\r\nContent-Disposition: form-data\r\n\r\nbroken',
    })
    expect(res.status).toBe(400)
    expect(await stored()).toEqual([])
  })

  it(`refuses a field longer than the form lets it be, saying so in Spanish`, async () => {
    const res = await postJson(sendBody({ ...PARAMS, message: 'z'.repeat(MAX_LENGTH.message + 1) }))
    expect(res.status).toBe(400)
    expect(res.text).toBe(
      `Sobran caracteres en los comentarios: caben como máximo ${MAX_LENGTH.message}.`,
    )
    expect(await stored()).toEqual([])
  })

  it('stores 50 parallel submissions, each exactly once', async () => {
    // More than one address's default rate limit allows (see intake-limits.test.ts).
    await site.close()
    await startApp(kind, { limits: { rateLimitPerMinute: 100, totalLimitPerMinute: 100 } })
    const emails = Array.from({ length: 50 }, (_, i) => `visitante${i}@grupo.mx`)
    const answers = await Promise.all(
      emails.map((email) => postJson(sendBody({ ...PARAMS, user_email: email }))),
    )
    expect(answers.map((res) => res.status)).toEqual(emails.map(() => 200))
    const records = await stored()
    expect(records.map((record) => record.params.user_email).sort()).toEqual([...emails].sort())
    expect(new Set(records.map((record) => record.id)).size).toBe(50)
  })

  it('other methods and GET on the API paths are 404, never a redirect', async () => {
    expect((await site.request(SEND_PATH)).status).toBe(404)
    expect((await site.request(SEND_PATH, { method: 'PUT' })).status).toBe(404)
    expect((await site.request('/api/v1.0/email/other', { method: 'POST' })).status).toBe(404)
  })
})

describe('service mode: the site talks to the real API', () => {
  const apiOrigin = 'https://api.emailjs.com'
  const build = { ...OWN_SERVER_BUILD, mode: 'email-service' as const, apiOrigin }
  let serviceDist: FakeDist

  beforeAll(async () => {
    serviceDist = await makeFakeDist(build)
    // A build for the e-mail service stores nothing: the helper's store stays empty.
    site = await appOnTemporaryStore({ distDir: serviceDist.dist })
  })
  afterAll(async () => {
    await site.close()
    await rm(serviceDist.root, { recursive: true, force: true })
  })

  it('has no intake: the API routes are 404', async () => {
    expect((await postJson(sendBody())).status).toBe(404)
    const res = await site.request(SEND_FORM_PATH, { method: 'POST' })
    expect(res.status).toBe(404)
    assertSecurityHeaders(res, build, 'service 404')
  })

  it("allows the API's origin in connect-src", async () => {
    const res = await site.request('/')
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toMatch(/connect-src 'self' https:\/\/api\.emailjs\.com(;|$)/)
  })
})
