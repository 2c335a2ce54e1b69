import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bookTime, cancelMeeting, readBooking } from './booking-client'

const PATH = '/reserva/q3Jf8v1Xb2k9T0pLm4nYwA'
const MEETING = {
  start: '2026-12-01T16:00:00Z',
  end: '2026-12-01T16:30:00Z',
  url: 'https://meet.gaspre.test/ana',
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const view = (overrides: Record<string, unknown> = {}) => ({
  rep: { name: 'Ana López' },
  minutes: 30,
  times: ['2026-12-01T16:00:00Z', '2026-12-01T16:30:00Z'],
  meeting: null,
  expires: '2026-12-12T16:00:00Z',
  ...overrides,
})

describe('the booking address, as the page reads it', () => {
  const fetchMock = vi.fn<typeof fetch>()
  beforeEach(() => {
    fetchMock.mockReset()
    vi.stubGlobal('fetch', fetchMock)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('reads the rep, the length and the free times, asking for JSON', async () => {
    fetchMock.mockResolvedValue(json(200, view()))
    expect(await readBooking(PATH)).toEqual({
      repName: 'Ana López',
      minutes: 30,
      times: ['2026-12-01T16:00:00Z', '2026-12-01T16:30:00Z'],
      meeting: null,
    })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe(PATH)
    expect(new Headers(init?.headers).get('accept')).toBe('application/json')
  })

  it.each([
    ['an unknown or expired address', () => json(404, { error: 'Este enlace ya no es válido.' })],
    [
      'a calendar that cannot be read',
      () => json(503, { error: 'No pudimos leer el calendario.' }),
    ],
    ['an answer that is not JSON', () => new Response('<html>', { status: 200 })],
    ['an answer without the rep', () => json(200, view({ rep: null }))],
    ['an answer without times', () => json(200, view({ times: 'pronto' }))],
    [
      'a meeting whose room is not https',
      () => json(200, view({ meeting: { ...MEETING, url: 'javascript:alert(1)' } })),
    ],
  ])('has nothing to offer for %s', async (_, answer) => {
    fetchMock.mockResolvedValue(answer())
    expect(await readBooking(PATH)).toBeNull()
  })

  it('has nothing to offer when no answer comes', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    expect(await readBooking(PATH)).toBeNull()
  })

  it('leaves out a free time that is not a date', async () => {
    fetchMock.mockResolvedValue(json(200, view({ times: ['2026-12-01T16:00:00Z', 'luego'] })))
    expect((await readBooking(PATH))?.times).toEqual(['2026-12-01T16:00:00Z'])
  })

  it('books a start by posting it as JSON, and reads the meeting', async () => {
    fetchMock.mockResolvedValue(json(200, { meeting: MEETING }))
    expect(await bookTime(PATH, '2026-12-01T10:00:00-06:00')).toEqual({
      kind: 'booked',
      meeting: MEETING,
    })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe(PATH)
    expect(init?.method).toBe('POST')
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json')
    expect(JSON.parse(String(init?.body))).toEqual({ start: '2026-12-01T10:00:00-06:00' })
  })

  it("a time just taken: the server's sentence and the fresh times", async () => {
    fetchMock.mockResolvedValue(
      json(409, { error: 'Esa hora ya no está libre.', times: ['2026-12-01T16:30:00Z'] }),
    )
    expect(await bookTime(PATH, '2026-12-01T10:00:00-06:00')).toEqual({
      kind: 'taken',
      error: 'Esa hora ya no está libre.',
      times: ['2026-12-01T16:30:00Z'],
    })
  })

  it("a start refused (422): the server's sentence; no answer: none", async () => {
    fetchMock.mockResolvedValueOnce(json(422, { error: 'Esa hora no se ofreció.' }))
    expect(await bookTime(PATH, '2026-12-01T10:05:00-06:00')).toEqual({
      kind: 'failed',
      error: 'Esa hora no se ofreció.',
    })
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    expect(await bookTime(PATH, '2026-12-01T10:00:00-06:00')).toEqual({
      kind: 'failed',
      error: null,
    })
  })

  it('cancels by posting {"cancel": true}', async () => {
    fetchMock.mockResolvedValue(json(200, { meeting: null }))
    expect(await cancelMeeting(PATH)).toEqual({ kind: 'booked', meeting: null })
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ cancel: true })
  })
})
