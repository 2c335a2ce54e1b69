// Repeated log lines: the first whole, the rest counted and said in one line per interval; the
// values a request supplies cut to a few hundred characters; a flood's episodes told once.
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FloodEpisodes } from '../intake/flood-episodes.js'
import { MAX_LOGGED_CHARS, bounded } from '../text/log-bounds.js'
import { RepeatedLines } from './repeated-lines.js'

let lines: Record<string, unknown>[]
const { log } = Fastify({
  logger: {
    level: 'info',
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    }),
  },
})
const summary = { what: 'demo requests from another site refused', level: 'warn', log } as const

beforeEach(() => {
  lines = []
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('repeated lines', () => {
  it('the first of a kind is written; the rest of the minute are one summary line', () => {
    const repeated = new RepeatedLines()
    expect(repeated.admit('cross-site', summary)).toBe(true)
    for (let i = 0; i < 1_999; i++) expect(repeated.admit('cross-site', summary)).toBe(false)
    // Another kind is counted on its own.
    expect(repeated.admit('bot', { ...summary, what: 'bots' })).toBe(true)
    expect(lines).toEqual([])
    vi.advanceTimersByTime(60_000)
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        event: 'repeated',
        kind: 'cross-site',
        count: 1_999,
        seconds: 60,
        msg: '1999 more demo requests from another site refused in the last minute',
      }),
    ])
  })

  it('while the flood goes on, one summary a minute; after a quiet minute, a whole line again', () => {
    const repeated = new RepeatedLines()
    expect(repeated.admit('cross-site', summary)).toBe(true)
    vi.advanceTimersByTime(30_000)
    expect(repeated.admit('cross-site', summary)).toBe(false)
    vi.advanceTimersByTime(30_000)
    expect(repeated.admit('cross-site', summary)).toBe(false)
    expect(repeated.admit('cross-site', summary)).toBe(false)
    vi.advanceTimersByTime(60_000)
    expect(lines.map((line) => line.count)).toEqual([1, 2])
    vi.advanceTimersByTime(60_000) // a quiet minute: nothing to say
    expect(lines).toHaveLength(2)
    expect(repeated.admit('cross-site', summary)).toBe(true)
  })

  it('what is counted when the server stops is said then, over the time it took', () => {
    const repeated = new RepeatedLines()
    repeated.admit('cross-site', summary)
    vi.advanceTimersByTime(12_000)
    repeated.admit('cross-site', summary)
    repeated.close()
    expect(lines).toEqual([
      expect.objectContaining({
        count: 1,
        seconds: 12,
        msg: '1 more demo requests from another site refused in the last 12 s',
      }),
    ])
    vi.advanceTimersByTime(120_000)
    expect(lines).toHaveLength(1)
  })
})

describe('values from a request, bounded', () => {
  it('are cut to a few hundred characters with a marker that says how much was left out', () => {
    const origin = `https://${'a'.repeat(8 * 1024)}.example`
    const cut = bounded(origin)
    expect(cut.startsWith(origin.slice(0, MAX_LOGGED_CHARS))).toBe(true)
    expect(cut.endsWith(`…[${origin.length - MAX_LOGGED_CHARS} more characters]`)).toBe(true)
    expect(cut.length).toBeLessThan(MAX_LOGGED_CHARS + 40)
    expect(bounded('https://gaspre.mx')).toBe('https://gaspre.mx')
  })

  it('never split a character in two', () => {
    const cut = bounded(`${'a'.repeat(MAX_LOGGED_CHARS - 1)}😀😀`)
    expect(cut).toBe(`${'a'.repeat(MAX_LOGGED_CHARS - 1)}…[4 more characters]`)
    // A lone surrogate would come back from UTF-8 as U+FFFD.
    expect(Buffer.from(cut).toString()).toBe(cut)
  })
})

describe('flood episodes', () => {
  it('begin with the first request held after a minute with none held', () => {
    let now = 0
    const episodes = new FloodEpisodes(() => now)
    expect(episodes.held(1)).toEqual({ kind: 'began', since: new Date(0) })
    // A steady flood: a request held every second for five minutes is one episode.
    for (let second = 1; second <= 300; second++) {
      now = second * 1000
      expect(episodes.held(1)?.kind).not.toBe('began')
    }
    now += 59_999
    expect(episodes.held(1)).toBeNull()
    now += 60_000
    expect(episodes.held(1)).toEqual({ kind: 'began', since: new Date(now) })
  })

  it('are told again as the held requests grow tenfold, with the episode’s start', () => {
    let now = 5_000
    const episodes = new FloodEpisodes(() => now)
    const told: [number, string][] = []
    for (let held = 1; held <= 1200; held++) {
      now += 100
      const news = episodes.held(held)
      if (news !== null) told.push([held, `${news.kind} ${news.since.getTime()}`])
    }
    expect(told).toEqual([
      [1, 'began 5100'],
      [10, 'grew 5100'],
      [100, 'grew 5100'],
      [1000, 'grew 5100'],
    ])
    // An episode that begins with 41 held from before is told at 100 next.
    now += 60_000
    expect(episodes.held(41)?.kind).toBe('began')
    expect(episodes.held(99)).toBeNull()
    expect(episodes.held(100)?.kind).toBe('grew')
  })
})
