import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SiteBuildError,
  isOrigin,
  parseSiteBuild,
  parseSitePages,
  readSiteBuild,
} from './site-build.js'
import { FAKE_PAGES, LOCAL_BUILD } from '../testing/server/fake-dist.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gaspre-site-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the build description (dist/.site.json)', () => {
  it('accepts the local and service descriptions the build writes', () => {
    expect(parseSiteBuild(LOCAL_BUILD)).toEqual(LOCAL_BUILD)
    const service = { ...LOCAL_BUILD, mode: 'service', apiOrigin: 'https://api.emailjs.com' }
    expect(parseSiteBuild(service).apiOrigin).toBe('https://api.emailjs.com')
    expect(parseSiteBuild({ mode: 'local' })).toMatchObject({ apiOrigin: null, scriptHashes: [] })
  })

  it.each([
    ['an unknown mode', { mode: 'remote' }, /mode must be/],
    ['service without apiOrigin', { mode: 'service' }, /apiOrigin is required/],
    [
      'an http API origin',
      { mode: 'service', apiOrigin: 'http://api.emailjs.com' },
      /not an https origin/,
    ],
    [
      'an origin with a path',
      { mode: 'service', apiOrigin: 'https://a.com/x' },
      /not an https origin/,
    ],
    [
      'a header injection',
      { mode: 'local', scriptOrigins: ['https://a.com; script-src *'] },
      /scriptOrigins/,
    ],
    ['a bad hash', { mode: 'local', scriptHashes: ["'unsafe-inline'"] }, /CSP hash source/],
    ['a bare hash', { mode: 'local', styleHashes: ['sha256-abc='] }, /CSP hash source/],
    ['a non-array', { mode: 'local', frameOrigins: 'https://x.com' }, /must be an array/],
    ['not an object', [], /JSON object/],
  ])('rejects %s', (_what, raw, message) => {
    expect(() => parseSiteBuild(raw)).toThrow(message)
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

  it('lists the pages, refusing an address or file a redirect rule could not hold', () => {
    expect(parseSitePages({ ...LOCAL_BUILD, pages: FAKE_PAGES })).toEqual(FAKE_PAGES)
    expect(() => parseSitePages(LOCAL_BUILD)).toThrow(/pages must list/)
    expect(() => parseSitePages({ pages: [{ path: '/a b', file: 'a.html' }] })).toThrow(/address/)
    expect(() => parseSitePages({ pages: [{ path: '/a', file: '../a.html' }] })).toThrow(/file/)
    expect(() => parseSitePages({ pages: [{ path: '/a', file: 'a.txt' }] })).toThrow(/file/)
  })
})
