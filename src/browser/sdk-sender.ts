import { init, send } from '@emailjs/browser'
import { createDemoRequestSender, type SenderDeps } from './send-demo-request'
import type { MailConfig } from '../config/mail-config'

/**
 * A sender and the SDK it drives, in one chunk (named email-sdk by vite.config.ts) that
 * demo-request-sender.ts fetches on first use: none of this code is needed before that.
 */
export const createSdkSender = (config: MailConfig, deps: Omit<SenderDeps, 'loadSdk'>) =>
  // Already loaded: it arrived in this module's chunk.
  createDemoRequestSender(config, { ...deps, loadSdk: async () => ({ init, send }) })
