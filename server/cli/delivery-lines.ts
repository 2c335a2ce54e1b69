// How each delivery of a request went, in Spanish, for the listing and the spreadsheet: one
// line per channel, and one per WhatsApp rep tried.
import { CHANNEL_NAMES } from '../channels/mail/index.js'
import type { ChannelState, Delivery, WhatsAppRoute } from '../store/index.js'
import { arrivedAt } from '../text/index.js'

const failedAttempts = (count: number): string =>
  `${count} ${count === 1 ? 'intento fallido' : 'intentos fallidos'}`

/**
 * How a delivery went, for a person: entregado, pendiente con el próximo intento, fallido y por
 * qué. `channel`, when known, is its channel's state: while the channel fails, a delivery waits
 * for the channel's next try, whatever its own time says.
 */
export function deliveryState(
  delivery: Delivery,
  timeZone: string,
  channel?: ChannelState,
): string {
  const now = Date.now()
  const when = (ms: number) => arrivedAt(new Date(ms).toISOString(), timeZone)
  const at = (ms: number) => (ms <= now ? 'ya' : `el ${when(ms)}`)
  switch (delivery.state) {
    case 'delivered':
      return (
        `entregado el ${arrivedAt(delivery.deliveredAt ?? '', timeZone)}` +
        (delivery.lastError !== null ? ` (${delivery.lastError})` : '')
      )
    case 'pending': {
      if (delivery.sendingUntil !== null) {
        return `pendiente: enviándose ahora (${failedAttempts(delivery.attempts)} antes)`
      }
      if (channel?.failingSince != null) {
        const next = channel.nextProbeAt ?? now
        // Why it fails is the channel's line, at the top of the listing.
        return (
          `pendiente: el envío por ${CHANNEL_NAMES[delivery.channel]} falla; se intenta de nuevo ` +
          (next <= now ? 'en unos segundos' : `el ${when(next)}`)
        )
      }
      return delivery.attempts === 0
        ? `pendiente: se envía ${at(delivery.nextAttemptAt)}`
        : `pendiente: próximo intento ${at(delivery.nextAttemptAt)} ` +
            `(${failedAttempts(delivery.attempts)}; ${delivery.lastError ?? 'sin detalle'})`
    }
    case 'failed':
      return `fallido: ${delivery.lastError ?? 'sin detalle'} (tras ${delivery.attempts} ${delivery.attempts === 1 ? 'intento' : 'intentos'})`
    case 'held':
      return 'retenido: no se envía hasta que alguien lo libere'
  }
}

/**
 * How each WhatsApp message went, one line per rep tried: when the rep's phone received and read
 * it, or why it went on to the next rep.
 */
export function whatsAppLines(route: WhatsAppRoute, timeZone: string): string[] {
  const when = (ms: number) => arrivedAt(new Date(ms).toISOString(), timeZone)
  const lines = route.messages.map((message) => {
    const parts: string[] = []
    if (message.sentAt === null)
      parts.push(message.movedOnAt === null ? 'por enviar' : 'no enviado')
    else parts.push(`enviado el ${when(message.sentAt)}`)
    if (message.deliveredAt !== null) parts.push(`recibido el ${when(message.deliveredAt)}`)
    if (message.readAt !== null) parts.push(`leído el ${when(message.readAt)}`)
    else if (message.sentAt !== null && message.movedOnAt === null && message.failedAt === null)
      parts.push('sin leer todavía')
    if (message.failedAt !== null)
      parts.push(`falló el ${when(message.failedAt)} (${message.failure ?? 'sin detalle'})`)
    if (message.movedOnAt !== null) {
      const why =
        message.movedOnBecause === 'unread'
          ? 'sin leer a tiempo'
          : message.movedOnBecause === 'refused'
            ? `su número no la recibe: ${message.failure ?? 'sin detalle'}`
            : 'falló'
      parts.push(`pasó al siguiente el ${when(message.movedOnAt)} (${why})`)
    }
    return `${message.rep}: ${parts.join('; ')}`
  })
  if (route.exhaustedAt !== null) {
    lines.push(`nadie la ha leído: se avisó por correo el ${when(route.exhaustedAt)}`)
  }
  return lines
}
