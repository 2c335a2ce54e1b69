import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appOnTemporaryStore, type AppOnStore } from '../testing/server/app-on-temporary-store.js'
import {
  EDITOR_BUILD,
  OWN_SERVER_BUILD,
  makeFakeDist,
  type FakeDist,
} from '../testing/server/fake-dist.js'
import {
  EDITOR_CHECKS,
  SERVING_CHECKS,
  assertNoLeak,
  assertSecurityHeaders,
  type ServingTarget,
} from '../testing/server/serving-checks.js'

let dist: FakeDist
let site: AppOnStore
let target: ServingTarget

beforeAll(async () => {
  dist = await makeFakeDist()
  site = await appOnTemporaryStore({ distDir: dist.dist })
  // On a socket: the serving rules are the ones nginx and Pages are held to, checked with the same
  // client, some of them on the bytes on the wire (raw requests, 100 KB paths).
  const url = await site.app.listen({ port: 0, host: '127.0.0.1' })
  target = { url, dist, build: OWN_SERVER_BUILD, brotli: true }
})

afterAll(async () => {
  await site?.close()
  await rm(dist.root, { recursive: true, force: true })
})

describe('Node server: the serving rules shared with nginx', () => {
  for (const check of SERVING_CHECKS) it(check.name, () => check.run(target))
})

describe('Node server with the content editor in the build', () => {
  let editorDist: FakeDist
  let editorSite: AppOnStore
  let editorTarget: ServingTarget
  beforeAll(async () => {
    editorDist = await makeFakeDist(EDITOR_BUILD)
    editorSite = await appOnTemporaryStore({ distDir: editorDist.dist })
    // On a socket, as the serving rules above.
    const url = await editorSite.app.listen({ port: 0, host: '127.0.0.1' })
    editorTarget = { url, dist: editorDist, build: EDITOR_BUILD, brotli: true }
  })
  afterAll(async () => {
    await editorSite?.close()
    if (editorDist) await rm(editorDist.root, { recursive: true, force: true })
  })
  for (const check of EDITOR_CHECKS) it(check.name, () => check.run(editorTarget))
})

describe('Node server: its own routes', () => {
  it('GET /healthz answers 200 {status: ok}, uncached, with headers', async () => {
    const res = await site.request('/healthz')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text)).toEqual({ status: 'ok' })
    expect(res.headers['cache-control']).toBe('no-store')
    assertSecurityHeaders(res, OWN_SERVER_BUILD, '/healthz')
    const head = await site.request('/healthz', { method: 'HEAD' })
    expect(head.status).toBe(200)
  })

  it('answers methods other than GET/HEAD on pages with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await site.request('/', { method })
      expect(res.status, method).toBe(405)
      expect(res.headers.allow).toBe('GET, HEAD')
      assertSecurityHeaders(res, OWN_SERVER_BUILD, method)
    }
  })

  it('negotiates unusual Accept-Encoding values safely', async () => {
    const original = dist.files.get('/index.html')
    const cases: [string, string][] = [
      ['deflate', ''],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'gzip'],
      ['identity', ''],
      ['gzip;q=0, br;q=0', ''],
      ['x'.repeat(2000), ''],
    ]
    for (const [acceptEncoding, expected] of cases) {
      const res = await site.request('/', { headers: { 'accept-encoding': acceptEncoding } })
      expect(res.status, acceptEncoding).toBe(200)
      expect(res.headers['content-encoding'] ?? '', acceptEncoding.slice(0, 20)).toBe(expected)
      if (expected === '') expect(res.body).toEqual(original)
    }
  })

  it('a 404 carries the build 404 page', async () => {
    const res = await site.request('/missing.png')
    expect(res.text).toContain('NOT-FOUND-MARKER')
  })

  it('sends no X-Powered-By or Server header', async () => {
    const res = await site.request('/')
    expect(res.headers['x-powered-by']).toBeUndefined()
    expect(res.headers.server).toBeUndefined()
  })

  it('an internal error is a plain 500 with headers and no stack trace', async () => {
    // A store whose every write fails with an error that names a file of the server.
    const broken = await appOnTemporaryStore({
      distDir: dist.dist,
      storeOptions: {
        onSqliteOpen: (connection) =>
          connection.exec(
            'CREATE TEMP TRIGGER broken BEFORE INSERT ON main.lead_requests BEGIN ' +
              "SELECT RAISE(ABORT, 'disk I/O error in /srv/secret/index.html'); END",
          ),
      },
    })
    try {
      const res = await broken.app.inject({
        method: 'POST',
        url: '/api/v1.0/email/send',
        headers: { 'content-type': 'application/json' },
        payload: {
          user_id: 'k',
          service_id: 's',
          template_id: 't',
          template_params: {
            user_name: 'Ana',
            user_email: 'x@y.mx',
            user_phone: '5512345678',
            user_group: 'G',
          },
        },
      })
      expect(res.statusCode).toBe(500)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      assertNoLeak(res.body, '500')
      expect(res.body).not.toMatch(/secret|index\.html/)
      expect(res.headers['content-security-policy']).toBeTruthy()
    } finally {
      await broken.close()
    }
  })
})
