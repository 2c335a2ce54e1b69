export { WhatsAppFollowUp } from './follow-up.js'
export { whatsappSender } from './sender.js'
export { whatsappWebhook, type WhatsAppWebhookOptions } from './status-webhook.js'
export { assignRep } from './assign-rep.js'
