export { leadMail } from './lead-mail.js'
export { mailSender } from './mail-sender.js'
export { CHANNEL_NAMES, noticeText } from './notices.js'
