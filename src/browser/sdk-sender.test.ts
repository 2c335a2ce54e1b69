import { afterEach, describe, expect, it, vi } from 'vitest'
import { LOCAL_IDS, type MailConfig } from '../config/mail-config'
import { parseMailConfig } from '../config/build-settings'
import { createSdkSender } from './sdk-sender'
import { safeStorage } from './storage'

// A local-mode build as `npm start` makes it, with a shorter timeout to keep tests quick.
const config: MailConfig = { ...parseMailConfig({}), sendTimeoutMs: 5_000 }

afterEach(() => vi.unstubAllGlobals())

describe('createSdkSender', () => {
  it('drives the SDK that came with it: the request goes to the page origin with our ids', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('OK'))
    vi.stubGlobal('fetch', fetchMock)
    const sender = createSdkSender(config, {
      storage: safeStorage(() => localStorage),
      pageOrigin: () => 'http://127.0.0.1:3000',
    })
    await sender.send({ user_name: 'Ana' })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('http://127.0.0.1:3000/api/v1.0/email/send')
    expect(JSON.parse(String(init?.body))).toMatchObject({
      user_id: LOCAL_IDS.publicKey,
      service_id: LOCAL_IDS.serviceId,
      template_params: { user_name: 'Ana' },
    })
  })
})
