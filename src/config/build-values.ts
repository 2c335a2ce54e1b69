import type { MailConfig } from './mail-config'

// Parsed and checked by vite.config.ts when the site is built and inlined as constants, so the
// page carries the values and none of the parsing. Changing them means building again.
declare const __MAIL_CONFIG__: MailConfig
declare const __TAG_MANAGER_ID__: string | null

export const mailConfig: MailConfig = __MAIL_CONFIG__
export const tagManagerId: string | null = __TAG_MANAGER_ID__
