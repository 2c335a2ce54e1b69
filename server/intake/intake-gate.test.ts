// What the intake lets into the store: only requests from our own pages, only real ones, and
// never more than it can keep; and a readiness check that says so before a visitor finds out.
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { FIELD_NAMES, HONEYPOT_FIELD } from '../../src/contract/demo-request.js'
import { refusals } from '../../src/contract/lead-server-text.js'
import { LARGEST_RECORD_BYTES, TEMPLATE_PARAM_MAX_LENGTH } from './demo-request-check.js'
import { POSTED_PAGES, SEND_FORM_PATH, SEND_PATH } from './demo-intake.js'
import { newRecord } from '../store/record.js'
import {
  appOnTemporaryStore,
  type AppOnStore,
} from '../../testing/server/app-on-temporary-store.js'
import { CALL_FIELDS, DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { fakeDistForThisFile } from '../../testing/server/per-file.js'
import type { HttpResponse } from '../../testing/server/http.js'
import { INJECTED_HOST } from '../../testing/server/inject.js'

const PARAMS = { ...DEMO_PARAMS, message: 'Quiero una demo.' }
const CONTROL = CALL_FIELDS

const dist = fakeDistForThisFile()
let site: AppOnStore
let logLines: string[]

async function startApp(options: { outboxMaxBytes?: number } = {}): Promise<void> {
  const { outboxMaxBytes } = options
  logLines = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean))
      done()
    },
  })
  site = await appOnTemporaryStore({
    distDir: dist.dist,
    logger: { level: 'info', stream },
    limits: {
      rateLimitPerMinute: 1000,
      totalLimitPerMinute: 1000,
      ...(outboxMaxBytes && { outboxMaxBytes }),
    },
  })
}

const postJson = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  sendDemoRequest(site.request, params, { headers })

/** A multipart body built by hand, so that it can hold any bytes. */
function multipart(fields: Record<string, string>): { body: Buffer; type: string } {
  const boundary = '----gaspre-test-boundary'
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const { body, type } = multipart({ ...CONTROL, ...fields })
  return site.request(SEND_FORM_PATH, {
    method: 'POST',
    headers: { 'content-type': type, ...headers },
    body,
  })
}

const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' }
/** What the store holds, as the intake took it. */
const stored = async () =>
  (await site.stored()).map(({ id, receivedAt, serviceId, templateId, params }) => ({
    id,
    receivedAt,
    serviceId,
    templateId,
    params,
  }))

afterEach(async () => {
  await site.close()
})

describe('only our pages file requests', () => {
  const crossSite: [string, Record<string, string>][] = [
    ['Origin of another site', { origin: 'https://evil.example' }],
    ['Origin "null"', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    [
      'a navigation from another site',
      {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        origin: 'https://evil.example',
      },
    ],
  ]
  for (const [what, headers] of crossSite) {
    it(`refuses ${what} with 403 on both endpoints and stores nothing`, async () => {
      await startApp()
      for (const res of [await postJson(PARAMS, headers), await postForm(PARAMS, headers)]) {
        expect(res.status).toBe(403)
        expect(res.text).toBe(refusals.crossSite)
      }
      expect(await stored()).toEqual([])
    })
  }

  it('accepts our own page, and a client that says nothing of where it comes from', async () => {
    await startApp()
    const host = INJECTED_HOST
    const answers = [
      await postJson(PARAMS, { 'sec-fetch-site': 'same-origin', origin: `http://${host}` }),
      await postJson(PARAMS, { origin: `http://${host}` }),
      await postJson(PARAMS),
      await postForm(PARAMS, NAVIGATION),
    ]
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 303])
    expect(await stored()).toHaveLength(4)
  })
})

describe('only real requests are stored', () => {
  it('a filled bot trap is told it succeeded and never stored, on every path', async () => {
    await startApp()
    const bot = { ...PARAMS, [HONEYPOT_FIELD]: 'http://spam.example' }
    const json = await postJson(bot)
    const form = await postForm(bot)
    const page = await postForm(bot, NAVIGATION)
    expect([json.status, json.text]).toEqual([200, 'OK'])
    expect([form.status, form.text]).toEqual([200, 'OK'])
    expect([page.status, page.headers.location]).toEqual([303, POSTED_PAGES.sent])
    expect(await stored()).toEqual([])
    // A trap left empty, as a person leaves it, is not stored either.
    expect((await postForm({ ...PARAMS, [HONEYPOT_FIELD]: '' })).status).toBe(200)
    expect((await stored())[0]?.params).not.toHaveProperty(HONEYPOT_FIELD)
  })

  it('a request without the required fields is refused with a Spanish message', async () => {
    await startApp()
    const onlyControl = await postForm({})
    expect([onlyControl.status, onlyControl.text]).toEqual([
      400,
      'Faltan el nombre completo, el correo electrónico, el teléfono y el grupo o estación.',
    ])
    const blanks = await postJson({ ...PARAMS, user_phone: '   ' })
    expect([blanks.status, blanks.text]).toEqual([400, 'Falta el teléfono.'])
    const page = await postForm({ user_name: 'Ana' }, NAVIGATION)
    expect([page.status, page.headers.location]).toEqual([303, POSTED_PAGES.failed])
    expect(await stored()).toEqual([])
  })

  it('an e-mail that is no address and a contact number that is not digits are refused in Spanish', async () => {
    await startApp()
    for (const email of [
      'ana@grupo',
      'Soporte <soporte@gaspre.test>',
      'ana lópez@grupo.mx',
      'ana@@grupo.mx',
    ]) {
      const refused = await postJson({ ...PARAMS, user_email: email })
      expect([refused.status, refused.text]).toEqual([400, refusals.invalidEmail])
    }
    for (const contact of ['12a', '4821 ', '٤٨٢١', '']) {
      const refused = await postJson({ ...PARAMS, contact_number: contact })
      expect([refused.status, refused.text]).toEqual([400, refusals.contactNumberNotDigits])
    }
    expect(refusals.invalidEmail).toBe(
      'El correo electrónico no es una dirección válida: escríbelo como nombre@empresa.com y vuelve a enviar la solicitud.',
    )
    expect(await stored()).toEqual([])
    expect(
      (
        await postJson({
          ...PARAMS,
          user_email: 'ana.lopez+demo@grupo-norte.com.mx',
          contact_number: '04821',
        })
      ).status,
    ).toBe(200)
  })

  it('a request with parameters the form never sends is refused', async () => {
    await startApp()
    const empties = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, '']))
    const answers = [
      await postJson(empties(981)),
      await postForm(empties(500)), // as many as fit in the 50 KB a body may have
      await postJson({ ...PARAMS, stations: '12' }),
    ]
    for (const res of answers) {
      expect([res.status, res.text]).toEqual([400, refusals.malformed])
    }
    expect(await stored()).toEqual([])
  })

  it('control characters are refused, however they are sent', async () => {
    await startApp()
    const answers: HttpResponse[] = [
      await postJson({ ...PARAMS, user_name: 'Ana\u001b[8m' }),
      await postJson({ ...PARAMS, message: 'hola\u202ealoh' }),
      await postForm({ ...PARAMS, message: '\u0001'.repeat(50_000) }),
      // Bytes that are not UTF-8 become U+FFFD, three times their size once stored.
      await site.request(SEND_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat([
          Buffer.from(JSON.stringify({ ...CONTROL, template_params: PARAMS }).slice(0, -3)),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}}'),
        ]),
      }),
      // A lone surrogate would be stored as a six-byte escape.
      await site.request(SEND_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...CONTROL, template_params: PARAMS }).replace(
          'Grupo Norte',
          'Grupo \\ud800Norte',
        ),
      }),
    ]
    expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 400, 400])
    expect(answers[0]?.text).toBe(refusals.forbiddenCharacters('user_name'))
    expect(await stored()).toEqual([])
  })

  it('an invisible character in a campaign value is made a space, not a refusal', async () => {
    await startApp()
    const res = await postJson({
      ...PARAMS,
      utm_campaign: 'oto\u0085ño\u202e',
      traffic_source: 'x',
    })
    expect(res.status).toBe(200)
    expect((await stored())[0]?.params.utm_campaign).toBe('oto ño')
  })

  it('what one request can store is bounded by what the form can hold, not by what was received', async () => {
    await startApp()
    // Every field at its longest, in characters of three UTF-8 bytes: the most a request stores.
    const longest = {
      ...Object.fromEntries(
        FIELD_NAMES.map((name) => [name, '€'.repeat(TEMPLATE_PARAM_MAX_LENGTH[name]!)]),
      ),
      // An address stays one a sales inbox can answer: ASCII, at its longest.
      user_email: `${'a'.repeat(TEMPLATE_PARAM_MAX_LENGTH.user_email! - 10)}@gaspre.mx`,
    }
    expect((await postJson(longest)).status).toBe(200)
    const line = JSON.stringify((await stored())[0]) + '\n'
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LARGEST_RECORD_BYTES)
    // The bound: under 16 KiB, against the 300 KB a 50 KB body of control characters once made.
    expect(LARGEST_RECORD_BYTES).toBeLessThan(16 * 1024)
    const worst = Object.fromEntries(
      Object.entries(TEMPLATE_PARAM_MAX_LENGTH).map(([name, max]) => [name, '€'.repeat(max)]),
    )
    expect(
      Buffer.byteLength(`${JSON.stringify(newRecord('s', 't', worst))}\n`),
    ).toBeLessThanOrEqual(LARGEST_RECORD_BYTES)
  })
})

describe('readiness tells the truth', () => {
  const notReadyLines = () => logLines.filter((line) => line.includes('"event":"not-ready"'))

  /** The bytes of a store that holds no request yet: its schema. */
  const emptyStoreBytes = async (): Promise<number> => {
    await startApp()
    const bytes = await site.store.bytes()
    await site.close()
    return bytes
  }

  it('a store at its cap: not ready, the sends refused, the log says so once', async () => {
    await startApp({ outboxMaxBytes: await emptyStoreBytes() })
    expect((await site.request('/readyz')).status).toBe(503)
    expect((await postJson(PARAMS)).status).toBe(507)
    expect((await site.request('/readyz')).status).toBe(503)
    expect(notReadyLines()).toHaveLength(1)
    expect(notReadyLines()[0]).toContain('the store is full')
  })

  it('turns not ready with the append that leaves no room for the largest request', async () => {
    await startApp({ outboxMaxBytes: (await emptyStoreBytes()) + LARGEST_RECORD_BYTES * 2 })
    let sent = 0
    while ((await site.request('/readyz')).status === 200) {
      expect((await postJson(PARAMS)).status).toBe(200)
      sent++
    }
    // The log said it at the append itself, before the probe asked, and only once.
    expect(notReadyLines()).toHaveLength(1)
    // Smaller requests still fit for a while; the largest one would not.
    expect((await postJson(PARAMS)).status).toBe(200)
    expect(sent).toBeGreaterThan(10)
    expect(notReadyLines()).toHaveLength(1)
  })
})
