// The webhook's body for a demo request (`demo_request.created`): its id, time and every field
// the visitor sent, the phone as one E.164 number, the campaign, and the WhatsApp rep it went to.
import type { CountryCode } from 'libphonenumber-js/max'
import { CAMPAIGN_KEYS } from '../../../src/contract/attribution.js'
import { parsePhone } from '../../settings/index.js'
import type { DemoRequestRecord, WhatsAppRoute } from '../../store/index.js'

interface RequestContext {
  /** Where a phone number without a country code is looked for (Mexico first). */
  regions?: readonly CountryCode[]
  /** The WhatsApp rep it went to, when that channel is on. */
  whatsapp?: WhatsAppRoute | null
}

export function webhookBody(record: DemoRequestRecord, context: RequestContext = {}): string {
  const { params } = record
  const campaign = Object.fromEntries(
    CAMPAIGN_KEYS.filter((key) => params[key] !== undefined).map((key) => [key, params[key]]),
  )
  return JSON.stringify({
    type: 'demo_request.created',
    timestamp: record.receivedAt,
    data: {
      id: record.id,
      receivedAt: record.receivedAt,
      name: params.user_name ?? null,
      email: params.user_email ?? null,
      phone: params.user_phone ?? null,
      // One E.164 number, or null when what the visitor wrote is none.
      phoneE164: parsePhone(params.user_phone ?? '', context.regions)?.e164 ?? null,
      group: params.user_group ?? null,
      message: params.message ?? null,
      contactNumber: params.contact_number ?? null,
      trafficSource: params.traffic_source ?? null,
      campaign,
      whatsapp:
        context.whatsapp != null
          ? { rep: context.whatsapp.rep, territory: context.whatsapp.territory }
          : null,
      params,
    },
  })
}
