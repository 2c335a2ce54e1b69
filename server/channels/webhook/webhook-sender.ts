// The webhook channel: each request (and each notice about delivery) is POSTed as JSON, signed
// per Standard Webhooks, to LEADS_WEBHOOK_URL. Redirects are never followed (the signature is
// for this URL). Only a body the receiver refuses as such (400, 413, 422) is the request's own
// fault; any other answer, or none, would be the same for every request: the channel's.
import { Webhook } from 'standardwebhooks'
import type { CountryCode } from 'libphonenumber-js/max'
import type { DeliveryConfig } from '../../settings/index.js'
import { noticeWebhookBody } from './notice-body.js'
import { webhookBody } from './request-body.js'
import { abortReason, type Sender } from '../../queue/index.js'
import { bounded, errorText } from '../../text/index.js'

/** Answers that refuse this body, not the channel. */
const REFUSES_THE_BODY = new Set([400, 413, 422])

export function webhookSender(
  config: NonNullable<DeliveryConfig['webhook']>,
  timeZone: string,
  regions: readonly CountryCode[] = ['MX'],
): Sender {
  const signer = new Webhook(config.secret)
  return {
    async send(job, signal) {
      const id = job.kind === 'request' ? job.record.id : job.notice.id
      const body =
        job.kind === 'request'
          ? webhookBody(job.record, { regions, whatsapp: job.whatsapp })
          : noticeWebhookBody(job.notice, timeZone)
      // Signed at each attempt: receivers refuse a timestamp older than five minutes.
      const timestamp = new Date()
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'gaspre-lead-server',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signer.sign(id, timestamp, body),
      }
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal,
        })
        // The answer's body is not read: whatever a receiver sends back costs no memory.
        await response.body?.cancel().catch(() => undefined)
        const { status } = response
        if (status >= 200 && status < 300) return { kind: 'delivered' }
        const reason = `HTTP ${status}`
        return REFUSES_THE_BODY.has(status)
          ? { kind: 'rejected', reason, proven: false }
          : { kind: 'channel-fault', reason }
      } catch (error) {
        if (signal.aborted) return { kind: 'channel-fault', reason: abortReason(signal) }
        const cause = (error as { cause?: unknown }).cause
        return { kind: 'channel-fault', reason: bounded(errorText(cause ?? error)) }
      }
    },
  }
}
