import { local } from './storage'
import { mailConfig } from '../config/build-env'
import { createDemoRequestSender } from './send-demo-request'

/** The page's one sender: the SDK is fetched on first use, never with the page. */
export const demoRequestSender = createDemoRequestSender(mailConfig, {
  loadSdk: () => import('@emailjs/browser'),
  storage: local,
  pageOrigin: () => window.location.origin,
})
