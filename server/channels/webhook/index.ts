export { webhookSender } from './webhook-sender.js'
