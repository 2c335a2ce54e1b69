import { init, send } from '@emailjs/browser'
import type { MailConfig } from '../config/mail-config'
import type { KeyValueStore } from '../rules/key-value-store'
import { SendTimeoutError } from '../rules/send-error-text'
import { RATE_LIMIT_KEY } from '../rules/sent-at'

export { RATE_LIMIT_KEY }

type TemplateParams = Readonly<Record<string, string>>

/**
 * Sends one demo request with the official SDK to the hosted e-mail service (the e-mail-service
 * build, for static hosts; an own-server build sends to our own door, send-to-own-server.ts, and
 * carries no SDK). This module and the SDK are one chunk (email-sdk, named by vite.config.ts)
 * that use-send-request.ts imports on the visitor's first input, so the page carries neither. The caller passes the build's
 * configuration and the page's storage, which the page has loaded already: imported here, they
 * would add a list of the chunk's dependencies to the page's own script.
 *
 * Two SDK behaviours shape this: `init()` without a `storageProvider` turns `limitRate` off,
 * so we always pass one; and the limiter records the time before the request leaves, so a
 * failed send would block the visitor's retry. After a failure we put back the time that was
 * there before, and the limit counts only requests that reached the sales team.
 */
export async function sendDemoRequest(
  params: TemplateParams,
  config: MailConfig,
  storage: KeyValueStore,
): Promise<void> {
  // init() only sets the SDK's options (no I/O): set with each send, nothing here keeps state.
  init({
    publicKey: config.publicKey,
    blockHeadless: config.blockHeadless,
    limitRate: { id: RATE_LIMIT_KEY, throttle: config.rateLimitMs },
    storageProvider: {
      get: async (key) => storage.get(key),
      set: async (key, value) => storage.set(key, value),
      remove: async (key) => storage.remove(key),
    },
    origin: config.apiOrigin ?? window.location.origin,
  })
  const sentBefore = storage.get(RATE_LIMIT_KEY)
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SendTimeoutError(config.sendTimeoutMs)),
      config.sendTimeoutMs,
    )
  })
  try {
    await Promise.race([send(config.serviceId, config.templateId, { ...params }), timeout])
  } catch (error) {
    const sentNow = storage.get(RATE_LIMIT_KEY)
    if (sentNow !== sentBefore) {
      if (sentBefore === null) storage.remove(RATE_LIMIT_KEY)
      else storage.set(RATE_LIMIT_KEY, sentBefore)
    }
    throw error
  } finally {
    clearTimeout(timer)
  }
}
