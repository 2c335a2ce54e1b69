import type * as EmailSdkModule from '@emailjs/browser'
import type { KeyValueStore } from '../rules/key-value-store'
import type { MailConfig } from '../config/mail-config'
import { SendTimeoutError } from '../rules/send-error-text'

type EmailSdk = Pick<typeof EmailSdkModule, 'init' | 'send'>

export type SenderDeps = {
  loadSdk: () => Promise<EmailSdk>
  storage: KeyValueStore
  pageOrigin: () => string
}

/**
 * Where the SDK's rate limiter keeps the time of the last accepted send.
 * @internal its tests use it too
 */
export const RATE_LIMIT_KEY = 'gaspre:demo-request-sent-at'

export type TemplateParams = Readonly<Record<string, string>>

/**
 * Sends demo requests through the official SDK, loaded on first use.
 *
 * Two SDK behaviours shape this: `init()` without a `storageProvider` turns `limitRate` off,
 * so we always pass one; and the limiter records the time before the request leaves, so a
 * failed send would block the visitor's retry. After a failure we put back the time that was
 * there before, and the limit counts only requests that reached the sales team.
 */
export function createDemoRequestSender(config: MailConfig, deps: SenderDeps) {
  let sdk: Promise<EmailSdk> | undefined

  const ready = () => {
    sdk ??= deps.loadSdk().then((module) => {
      module.init({
        publicKey: config.publicKey,
        blockHeadless: config.blockHeadless,
        limitRate: { id: RATE_LIMIT_KEY, throttle: config.rateLimitMs },
        storageProvider: {
          get: async (key) => deps.storage.get(key),
          set: async (key, value) => deps.storage.set(key, value),
          remove: async (key) => deps.storage.remove(key),
        },
        origin: config.apiOrigin ?? deps.pageOrigin(),
      })
      return module
    })
    return sdk
  }

  return {
    /** Starts loading the SDK ahead of the first send (e.g. when the visitor starts typing). */
    preload: () => void ready().catch(() => undefined),

    async send(params: TemplateParams): Promise<void> {
      const module = await ready()
      const sentBefore = deps.storage.get(RATE_LIMIT_KEY)
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new SendTimeoutError(config.sendTimeoutMs)),
          config.sendTimeoutMs,
        )
      })
      try {
        await Promise.race([
          module.send(config.serviceId, config.templateId, { ...params }),
          timeout,
        ])
      } catch (error) {
        const sentNow = deps.storage.get(RATE_LIMIT_KEY)
        if (sentNow !== sentBefore) {
          if (sentBefore === null) deps.storage.remove(RATE_LIMIT_KEY)
          else deps.storage.set(RATE_LIMIT_KEY, sentBefore)
        }
        throw error
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

export type DemoRequestSender = ReturnType<typeof createDemoRequestSender>
