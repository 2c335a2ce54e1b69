import { local } from './storage'
import { mailConfig } from '../config/build-values'
import type { DemoRequestSender, TemplateParams } from './send-demo-request'

// Kept once loaded. A load that failed (a dropped connection on a phone) is forgotten, so the
// visitor's next try fetches it again instead of failing the same way.
let loading: Promise<DemoRequestSender> | undefined
const loadSender = () =>
  (loading ??= import('./sdk-sender')
    .then((sdkSender) =>
      sdkSender.createSdkSender(mailConfig, {
        storage: local,
        pageOrigin: () => window.location.origin,
      }),
    )
    .catch((error: unknown) => {
      loading = undefined
      throw error
    }))

/** The page's one sender: its code and the SDK are fetched on first use, never with the page. */
export const demoRequestSender = {
  /** Starts loading ahead of the first send (e.g. when the visitor starts typing). */
  preload: () =>
    void loadSender().then(
      (sender) => sender.preload(),
      () => undefined,
    ),

  send: async (params: TemplateParams) => (await loadSender()).send(params),
}
