export { arrivedAt, deliveryState, leadMail, webhookBody, whatsAppLines } from './lead-mail.js'
export { mailSender } from './mail-sender.js'
export { CHANNEL_NAMES, noticeWebhookBody } from './notices.js'
