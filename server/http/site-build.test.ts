import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SiteBuildError,
  type BookingTexts,
  isOrigin,
  parseSiteBuild,
  parseSitePages,
  readSiteBuild,
} from './site-build.js'
import { FAKE_PAGES, OWN_SERVER_BUILD } from '../../testing/server/fake-dist.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gaspre-site-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the build description (dist/.site.json)', () => {
  it('accepts the local and service descriptions the build writes', () => {
    expect(parseSiteBuild(OWN_SERVER_BUILD)).toEqual(OWN_SERVER_BUILD)
    const service = {
      ...OWN_SERVER_BUILD,
      mode: 'email-service',
      apiOrigin: 'https://api.emailjs.com',
    }
    expect(parseSiteBuild(service).apiOrigin).toBe('https://api.emailjs.com')
    expect(parseSiteBuild({ mode: 'own-server' })).toMatchObject({
      apiOrigin: null,
      scriptHashes: [],
    })
  })

  // Each refusal is one line naming the field, what it holds and what it should hold.
  it.each([
    [
      'an unknown mode',
      { mode: 'remote' },
      'mode must be "own-server" or "email-service", not "remote"',
    ],
    ['no mode', {}, 'mode must be "own-server" or "email-service", not missing'],
    [
      'service without apiOrigin',
      { mode: 'email-service' },
      'apiOrigin is required in email-service mode',
    ],
    [
      'an http API origin',
      { mode: 'email-service', apiOrigin: 'http://api.emailjs.com' },
      'apiOrigin "http://api.emailjs.com" is not an https origin',
    ],
    [
      'an origin with a path',
      { mode: 'email-service', apiOrigin: 'https://a.com/x' },
      'apiOrigin "https://a.com/x" is not an https origin',
    ],
    [
      'a header injection',
      { mode: 'own-server', scriptOrigins: ['https://a.com', 'https://a.com; script-src *'] },
      'scriptOrigins[1] holds "https://a.com; script-src *", which is not an https origin',
    ],
    [
      'a bad hash',
      { mode: 'own-server', scriptHashes: ["'unsafe-inline'"] },
      `scriptHashes[0] holds "'unsafe-inline'", which is not a CSP hash source like 'sha256-…'`,
    ],
    [
      'a bare hash',
      { mode: 'own-server', styleHashes: ['sha256-abc='] },
      `styleHashes[0] holds "sha256-abc=", which is not a CSP hash source like 'sha256-…'`,
    ],
    [
      'a number for an origin',
      { mode: 'own-server', connectOrigins: [443] },
      'connectOrigins[0] holds 443, which is not an https origin',
    ],
    [
      'a non-array',
      { mode: 'own-server', frameOrigins: 'https://x.com' },
      'frameOrigins must be an array of https origins',
    ],
    [
      'an editor that is a list',
      { mode: 'own-server', editor: [] },
      'editor must be an object or null',
    ],
    [
      "a bad origin in the editor's policy",
      {
        mode: 'own-server',
        editor: { connectOrigins: ['https://a.com'], imageOrigins: ['data:'] },
      },
      'editor.imageOrigins[0] holds "data:", which is not an https origin',
    ],
    ['not an object', [], 'the build description must be a JSON object'],
  ])('rejects %s', (_what, raw, message) => {
    expect(() => parseSiteBuild(raw)).toThrow(new SiteBuildError(message))
  })

  it('takes a missing or null list as empty and leaves out fields it does not know', () => {
    expect(
      parseSiteBuild({
        mode: 'own-server',
        apiOrigin: null,
        frameOrigins: null,
        pages: FAKE_PAGES,
      }),
    ).toEqual({
      mode: 'own-server',
      apiOrigin: null,
      scriptHashes: [],
      styleHashes: [],
      frameOrigins: [],
      scriptOrigins: [],
      connectOrigins: [],
      editor: null,
      formMessages: null,
      bookingTexts: null,
    })
  })

  it("takes the booking's words for its pages and answers, and names a missing one", () => {
    expect(parseSiteBuild(OWN_SERVER_BUILD).bookingTexts?.answers.taken).toBe(
      OWN_SERVER_BUILD.bookingTexts?.answers.taken,
    )
    const page: Partial<BookingTexts['page']> = { ...OWN_SERVER_BUILD.bookingTexts!.page }
    delete page.meetingTitle
    expect(() =>
      parseSiteBuild({
        ...OWN_SERVER_BUILD,
        bookingTexts: { ...OWN_SERVER_BUILD.bookingTexts, page },
      }),
    ).toThrow('bookingTexts.page.meetingTitle must be a text')
  })

  it("takes the form's messages for the door, and names a bad one", () => {
    expect(parseSiteBuild(OWN_SERVER_BUILD).formMessages?.required.user_phone).toBe(
      OWN_SERVER_BUILD.formMessages?.required.user_phone,
    )
    expect(() =>
      parseSiteBuild({
        ...OWN_SERVER_BUILD,
        formMessages: { ...OWN_SERVER_BUILD.formMessages, phone: '' },
      }),
    ).toThrow('formMessages.phone must not be empty')
  })

  it('allows http origins on loopback only (tests)', () => {
    expect(isOrigin('http://127.0.0.1:8080')).toBe(true)
    expect(isOrigin('http://localhost:3000')).toBe(true)
    expect(isOrigin('http://10.0.0.1')).toBe(false)
  })

  it('says to run the build when dist/ or .site.json is missing', async () => {
    expect(() => readSiteBuild(join(dir, 'nope'))).toThrow(SiteBuildError)
    expect(() => readSiteBuild(join(dir, 'nope'))).toThrow(/Run npm run build first/)
    await mkdir(join(dir, 'dist'))
    expect(() => readSiteBuild(join(dir, 'dist'))).toThrow(
      /\.site\.json is missing.*Run npm run build first/,
    )
    await writeFile(join(dir, 'dist', '.site.json'), '{"mode":')
    expect(() => readSiteBuild(join(dir, 'dist'))).toThrow(/not valid JSON/)
  })

  it('names the file and the field when the description is wrong', async () => {
    await mkdir(join(dir, 'wrong'))
    const file = join(dir, 'wrong', '.site.json')
    await writeFile(file, JSON.stringify({ mode: 'own-server', frameOrigins: ['http://x.com'] }))
    expect(() => readSiteBuild(join(dir, 'wrong'))).toThrow(
      new SiteBuildError(
        `${file}: frameOrigins[0] holds "http://x.com", which is not an https origin`,
      ),
    )
  })

  it('lists the pages, refusing an address or file a redirect rule could not hold', () => {
    expect(parseSitePages({ ...OWN_SERVER_BUILD, pages: FAKE_PAGES })).toEqual(FAKE_PAGES)
    const refusal = (pages: unknown) => () => parseSitePages({ ...OWN_SERVER_BUILD, pages })
    expect(() => parseSitePages(OWN_SERVER_BUILD)).toThrow(
      'pages must list the pages the build wrote',
    )
    expect(refusal([])).toThrow('pages must list the pages the build wrote')
    expect(refusal([{ path: '/a b', file: 'a.html' }])).toThrow(
      'pages[0].path holds "/a b", which is not an address like /tyc',
    )
    expect(refusal([...FAKE_PAGES, { path: '/a', file: '../a.html' }])).toThrow(
      `pages[${FAKE_PAGES.length}].file holds "../a.html", which is not a file name like tyc.html`,
    )
    expect(refusal([{ path: '/a', file: 'a.txt' }])).toThrow(/pages\[0\]\.file holds "a.txt"/)
    expect(refusal([{ path: '/a' }])).toThrow('pages[0].file is missing: a file name like tyc.html')
  })
})
