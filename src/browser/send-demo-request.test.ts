import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { safeStorage } from './storage'
import { LOCAL_IDS, type MailConfig } from '../config/mail-config'
import { parseMailConfig } from '../config/build-settings'
import { sendErrorText } from '../rules/send-error-text'
import { RATE_LIMIT_KEY, sendDemoRequest } from './send-demo-request'

// A own-server build as `npm start` makes it, with a shorter timeout to keep tests quick.
const config: MailConfig = { ...parseMailConfig({}), sendTimeoutMs: 5_000 }

const params = {
  user_name: 'Ana',
  user_email: 'ana@grupo.mx',
  user_phone: '5512345678',
  user_group: 'G',
  message: '',
}

const makeSender = (overrides: Partial<MailConfig> = {}) => ({
  send: (sent: typeof params) =>
    sendDemoRequest(
      sent,
      { ...config, ...overrides },
      safeStorage(() => localStorage),
    ),
})

const ok = () => new Response('OK', { status: 200 })

describe('sendDemoRequest (with the real SDK)', () => {
  const fetchMock = vi.fn<typeof fetch>()
  beforeEach(() => {
    fetchMock.mockReset()
    vi.stubGlobal('fetch', fetchMock)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('posts the fields as template params to the page origin in own-server mode', async () => {
    fetchMock.mockResolvedValue(ok())
    await makeSender().send(params)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe(`${window.location.origin}/api/v1.0/email/send`)
    const body = JSON.parse(String(init?.body))
    expect(body).toMatchObject({
      user_id: LOCAL_IDS.publicKey,
      service_id: LOCAL_IDS.serviceId,
      template_id: LOCAL_IDS.templateId,
      template_params: params,
    })
  })

  it('posts to the hosted service when the build names one', async () => {
    fetchMock.mockResolvedValue(ok())
    await makeSender({ mode: 'email-service', apiOrigin: 'https://api.emailjs.com' }).send(params)
    expect(fetchMock.mock.calls[0]![0]).toBe('https://api.emailjs.com/api/v1.0/email/send')
  })

  it('holds the rate limit: a second send within the interval never leaves the browser', async () => {
    fetchMock.mockImplementation(async () => ok())
    const sender = makeSender()
    await sender.send(params)
    const refusal = await sender.send(params).catch((error: unknown) => error)
    expect(sendErrorText(refusal)).toBe('Too Many Requests')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('lets the visitor retry at once after a failed send', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(ok())
    const sender = makeSender()
    const failure = await sender.send(params).catch((error: unknown) => error)
    expect(sendErrorText(failure)).toBe('Network Error')
    expect(localStorage.getItem(RATE_LIMIT_KEY)).toBeNull()
    await expect(sender.send(params)).resolves.toBeUndefined()
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('reports the body of an HTTP error', async () => {
    fetchMock.mockResolvedValue(new Response('The template ID is invalid', { status: 412 }))
    const failure = await makeSender()
      .send(params)
      .catch((error: unknown) => error)
    expect(sendErrorText(failure)).toBe('The template ID is invalid')
  })

  it('gives up on a request that hangs', async () => {
    vi.useFakeTimers()
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined))
    const pending = makeSender()
      .send(params)
      .catch((error: unknown) => error)
    await vi.advanceTimersByTimeAsync(5_001)
    expect(sendErrorText(await pending)).toMatch(/no respondió en 5 segundos/)
  })

  it('refuses headless browsers only when configured to', async () => {
    fetchMock.mockResolvedValue(ok())
    Object.defineProperty(navigator, 'webdriver', { value: true, configurable: true })
    try {
      const failure = await makeSender({ blockHeadless: true })
        .send(params)
        .catch((e: unknown) => e)
      expect(sendErrorText(failure)).toBe('Unavailable For Headless Browser')
      await expect(makeSender().send(params)).resolves.toBeUndefined()
    } finally {
      Object.defineProperty(navigator, 'webdriver', { value: false, configurable: true })
    }
  })
})
