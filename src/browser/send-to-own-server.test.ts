import { render, waitFor } from '@testing-library/react'
import { createElement, Fragment } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { safeStorage } from './storage'
import type { MailConfig } from '../config/mail-config'
import { parseMailConfig } from '../config/build-settings'
import { refusals } from '../contract/lead-server-text'
import { clearDraft } from '../rules/draft'
import { NETWORK_ERROR, sendErrorText } from '../rules/send-error-text'
import { RATE_LIMIT_KEY } from '../rules/sent-at'
import { OFFLINE_WAIT_MS, RETRY_DELAYS_MS, sendDemoRequest } from './send-to-own-server'

// An own-server build as `npm start` makes it, with a shorter timeout to keep tests quick.
const config: MailConfig = { ...parseMailConfig({}), sendTimeoutMs: 5_000, rateLimitMs: 0 }
const storage = safeStorage(() => localStorage)

const params = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.mx',
  user_phone: '55 1234 5678',
  user_group: 'Grupo Norte',
  message: '',
  contact_number: '4821',
}

const stored = () =>
  new Response(JSON.stringify({ id: 'f1b5', status: 'stored' }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })
const refused = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
const dropped = () => Promise.reject(new TypeError('Failed to fetch'))
/** A fetch that never answers until the page gives up on it. */
const silent = (_url: unknown, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))
  })

/** Lets every timer and promise that is due run (fake timers). */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms)

describe('sendDemoRequest to our own door', () => {
  const fetchMock = vi.fn<typeof fetch>()
  const keyOf = (call: number) =>
    new Headers(fetchMock.mock.calls[call]![1]?.headers).get('idempotency-key')
  const bodyOf = (call: number) => String(fetchMock.mock.calls[call]![1]?.body)

  beforeEach(() => {
    localStorage.clear()
    fetchMock.mockReset()
    vi.stubGlobal('fetch', fetchMock)
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('posts the fields as JSON to /api/demo-requests with a quoted Idempotency-Key', async () => {
    fetchMock.mockResolvedValue(stored())
    await sendDemoRequest(params, config, storage)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/demo-requests')
    expect(init?.method).toBe('POST')
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json')
    expect(JSON.parse(bodyOf(0))).toEqual(params)
    expect(keyOf(0)).toMatch(/^"[0-9a-f-]{36}"$/)
    expect(storage.get(RATE_LIMIT_KEY)).not.toBeNull()
  })

  it("leads to the rep's free times when the answer gives a booking address, and only then", async () => {
    vi.useRealTimers()
    const answered = (booking?: unknown) =>
      new Response(JSON.stringify({ id: 'f1b5', status: 'stored', booking }), { status: 200 })
    fetchMock.mockResolvedValueOnce(answered('/reserva/q3Jf8v1Xb2k9T0pLm4nYwA'))
    const sent = await sendDemoRequest(params, config, storage)
    // The picker reads its address as soon as it is shown.
    fetchMock.mockResolvedValue(new Response('{}', { status: 404 }))
    render(createElement(Fragment, null, await sent.next))
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2))
    expect(fetchMock.mock.calls[1]![0]).toBe('/reserva/q3Jf8v1Xb2k9T0pLm4nYwA')

    for (const booking of [
      undefined,
      '//elsewhere.test/reserva/x',
      'https://elsewhere.test/x',
      7,
    ]) {
      localStorage.clear()
      fetchMock.mockResolvedValueOnce(answered(booking))
      expect((await sendDemoRequest(params, config, storage)).next).toBeUndefined()
    }
  })

  it('tries again with the same key and body when an answer is lost, and succeeds', async () => {
    fetchMock.mockImplementationOnce(dropped).mockResolvedValueOnce(stored())
    const sending = sendDemoRequest(params, config, storage)
    await advance(RETRY_DELAYS_MS[0] - 1)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    await advance(1)
    await sending
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(keyOf(1)).toBe(keyOf(0))
    expect(bodyOf(1)).toBe(bodyOf(0))
  })

  it('a try that times out is retried as lost; so is a 409 (the first is still being stored)', async () => {
    fetchMock
      .mockImplementationOnce(silent)
      .mockResolvedValueOnce(refused(409, 'Tu solicitud se está registrando'))
      .mockResolvedValueOnce(stored())
    const sending = sendDemoRequest(params, config, storage)
    await advance(config.sendTimeoutMs + RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1])
    await sending
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(new Set([keyOf(0), keyOf(1), keyOf(2)]).size).toBe(1)
  })

  it('stops after four tries with back-off and rejects as a network error', async () => {
    fetchMock.mockImplementation(dropped)
    const sending = sendDemoRequest(params, config, storage)
    const outcome = sending.then(
      () => 'sent',
      (error: unknown) => sendErrorText(error),
    )
    await advance(RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0))
    expect(await outcome).toBe(NETWORK_ERROR)
    expect(fetchMock).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1)
    expect(storage.get(RATE_LIMIT_KEY)).toBeNull()
  })

  it('the last try timing out says the service did not answer', async () => {
    fetchMock.mockImplementation(silent)
    const outcome = sendDemoRequest(params, config, storage).then(
      () => 'sent',
      (error: unknown) => sendErrorText(error),
    )
    await advance(4 * config.sendTimeoutMs + 7_000)
    expect(await outcome).toMatch(/no respondió en 5 segundos/)
  })

  it('a refusal is not retried: its sentence is what the visitor reads', async () => {
    fetchMock.mockResolvedValue(refused(429, refusals.busy))
    const error = await sendDemoRequest(params, config, storage).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 429 })
    expect(sendErrorText(error)).toBe(refusals.busy)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    // A refusal that is not the door's JSON (a proxy's page) shows its text.
    fetchMock.mockResolvedValue(new Response('Bad Gateway', { status: 502 }))
    expect(sendErrorText(await sendDemoRequest(params, config, storage).catch((e) => e))).toBe(
      'Bad Gateway',
    )
  })

  it('offline, a retry waits for the connection to come back, not for the back-off', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    fetchMock.mockImplementationOnce(dropped).mockResolvedValueOnce(stored())
    const sending = sendDemoRequest(params, config, storage)
    await advance(RETRY_DELAYS_MS[2])
    expect(fetchMock).toHaveBeenCalledTimes(1)
    window.dispatchEvent(new Event('online'))
    await advance(0)
    await sending
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(OFFLINE_WAIT_MS).toBeGreaterThan(RETRY_DELAYS_MS[2])
  })

  it('keeps one key per draft: the same request sent again reuses it, a changed or new one does not', async () => {
    fetchMock.mockImplementation(dropped)
    const first = sendDemoRequest(params, config, storage).catch(() => undefined)
    await advance(10_000)
    await first
    const lostKey = keyOf(0)
    expect(lostKey).not.toBeNull()
    // The visitor presses send again after "Network Error": the same key.
    fetchMock.mockReset()
    fetchMock.mockImplementation(() => Promise.resolve(stored()))
    await sendDemoRequest(params, config, storage)
    expect(keyOf(0)).toBe(lostKey)
    // The same draft, sent again before it was cleared: still the same key.
    await sendDemoRequest(params, config, storage)
    expect(keyOf(1)).toBe(lostKey)
    // Another request (a field changed): another key.
    await sendDemoRequest({ ...params, user_group: 'Grupo Sur' }, config, storage)
    expect(keyOf(2)).not.toBe(lostKey)
    // Sent and cleared: the next draft starts with a key of its own.
    clearDraft(storage)
    await sendDemoRequest(params, config, storage)
    expect(keyOf(3)).not.toBe(lostKey)
  })

  it('checks the request with the schema the server applies before it leaves', async () => {
    const error = await sendDemoRequest(
      { ...params, user_name: 'Ana\u0007' },
      config,
      storage,
    ).catch((e: unknown) => e)
    expect(sendErrorText(error)).toBe(refusals.forbiddenCharacters('user_name'))
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('keeps the limit of one request that reached sales per period', async () => {
    fetchMock.mockResolvedValue(stored())
    await sendDemoRequest(params, { ...config, rateLimitMs: 60_000 }, storage)
    const error = await sendDemoRequest(params, { ...config, rateLimitMs: 60_000 }, storage).catch(
      (e: unknown) => e,
    )
    expect(sendErrorText(error)).toBe('Too Many Requests')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
