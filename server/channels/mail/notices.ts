// The notices about delivery itself, in Spanish, for the people who can mend a channel: one when
// a channel has failed for LEADS_ALERT_AFTER_SECONDS (which channel, since when, why, how many
// requests wait, what to check, and that nothing is lost), one when it works again; and one when
// a flood begins to be held; one naming a request that one channel keeps failing to deliver
// while it delivers others, and one when that request is given up (decision 024). A mail for the
// sales team, or a webhook event of its own (`delivery.failing`, `delivery.recovered`,
// `demo_requests.held`, `delivery.stuck`, `delivery.dead_letter`: webhook/notice-body.ts).
import type { Channel, Notice, StuckData, UnreadData, Watched } from '../../store/index.js'
import { arrivedAt, visibleControls } from '../../text/index.js'
import { requestMailSubject } from './lead-mail.js'
import { noticeMailHtml } from './notice-mail-html.js'

/** Each channel as the notices and the listing name it. */
export const CHANNEL_NAMES: Record<Watched, string> = {
  email: 'correo',
  webhook: 'webhook',
  whatsapp: 'WhatsApp',
  calendar: 'agenda',
}

/** What the people who run the server should look at, by the channel's last error. */
function whatToCheck(channel: Watched, reason: string | null): string {
  const why = reason ?? ''
  if (channel === 'email') {
    if (/SMTP 5(30|34|35|38)|EAUTH|Invalid login|credentials/i.test(why))
      return 'el usuario y la contraseña de SMTP_URL: el proveedor de correo pudo cambiarla o revocarla (una contraseña de aplicación vencida, por ejemplo).'
    if (/TLS|certificate|SSL|wrong version/i.test(why))
      return 'el cifrado de SMTP_URL (smtp:// con STARTTLS en el puerto 587, o smtps:// en el 465) y el certificado del servidor de correo.'
    if (/rechaz|RCPT|SMTP 55[0-3]/i.test(why))
      return 'las direcciones de LEADS_MAIL_TO y LEADS_MAIL_FROM: el servidor de correo las rechaza.'
    return 'que el servidor de correo de SMTP_URL (nombre y puerto) esté en línea y se pueda alcanzar desde este servidor.'
  }
  if (channel === 'whatsapp') {
    if (/WhatsApp (190|0|10|200)\b|HTTP 401/.test(why))
      return 'WHATSAPP_TOKEN: el token de acceso de la API de WhatsApp venció o fue revocado (usa el token permanente de un usuario del sistema).'
    if (/WhatsApp (130429|131056|80007|4)\b/.test(why))
      return 'el límite de envíos de la API de WhatsApp: se reanuda solo en cuanto Meta lo permite.'
    if (/WhatsApp 132\d{3}\b/.test(why))
      return 'WHATSAPP_TEMPLATE y WHATSAPP_TEMPLATE_LANGUAGE: la plantilla debe estar aprobada, en ese idioma y con cinco variables.'
    return 'que la API de WhatsApp (WHATSAPP_API_URL, WHATSAPP_PHONE_NUMBER_ID) responda desde este servidor; el estado de Meta está en metastatus.com.'
  }
  if (/HTTP 40[13]/.test(why))
    return 'la autorización del receptor y LEADS_WEBHOOK_SECRET: el secreto pudo cambiar en el CRM.'
  if (/HTTP (3\d\d|404|405|410)/.test(why))
    return 'la dirección LEADS_WEBHOOK_URL: el receptor ya no la atiende (un Zap apagado o un flujo que cambió de dirección).'
  return 'que el receptor de LEADS_WEBHOOK_URL (el CRM, n8n, Zapier o Make) esté en línea: responde con errores o no responde.'
}

const requestsWaiting = (count: number): string =>
  count === 1 ? 'Espera 1 solicitud' : `Esperan ${count} solicitudes`

/** Names as a sentence lists them: «a, b y c». */
const list = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`

/** A WhatsApp message nobody read in time, that failed, or that a rep's number refused. */
function unreadText(unread: UnreadData): { subject: string; lines: string[] } {
  const request = `n.º ${visibleControls(unread.contactNumber)} de ${visibleControls(unread.name).replace(/\s+/g, ' ')} (${visibleControls(unread.group).replace(/\s+/g, ' ')})`
  const what =
    unread.because === 'unread'
      ? `${unread.rep} no leyó en ${unread.minutes} minutos de horario laboral el WhatsApp de la solicitud de demo ${request}.`
      : unread.because === 'failed'
        ? `El WhatsApp de la solicitud de demo ${request} no le llegó a ${unread.rep}: ${unread.failure ?? 'sin detalle'}.`
        : `El número ${unread.rep} no puede recibir el WhatsApp de la solicitud de demo ${request}: ${unread.failure ?? 'sin detalle'}. Revisa LEADS_WHATSAPP_ROUTES.`
  // An answer to the request's own mail (mail-sender.ts threads it there by its Message-ID): a
  // mail client shows it under the request, as long as the subject is the request's.
  const subject = `Re: ${requestMailSubject(unread)}`
  if (unread.next !== null) {
    return { subject, lines: [what, `Ahora se le envía a ${unread.next}.`] }
  }
  return {
    subject,
    lines: [
      what,
      `Ya se intentó con todos (${list(unread.tried)}, a cada uno una vez) y nadie la ha leído en WhatsApp. Que alguien del equipo la atienda ya; los datos están en el correo de la solicitud, al que responde este, y en npm run outbox.`,
    ],
  }
}

/** What refuses one request when its channel takes the others (a calendar carries no request). */
const STUCK_CHECK: Record<Channel, string> = {
  email:
    'qué rechaza el servidor de correo de este mensaje en concreto (su contenido, su tamaño, sus direcciones).',
  webhook:
    'qué rechaza el receptor de LEADS_WEBHOOK_URL (el CRM, n8n, Zapier o Make) de esta solicitud en concreto: sus datos o su tamaño.',
  whatsapp:
    'qué rechaza la API de WhatsApp de este mensaje en concreto: el número del representante o los datos de la solicitud.',
}

/** A request one channel keeps failing to deliver while it delivers others, or gave up on. */
function stuckText(
  notice: Notice,
  stuck: StuckData,
  timeZone: string,
): { subject: string; lines: string[] } {
  const name = CHANNEL_NAMES[notice.subject]
  const contact = visibleControls(stuck.contactNumber)
  const request = `n.º ${contact} de ${visibleControls(stuck.name).replace(/\s+/g, ' ')} (${visibleControls(stuck.group).replace(/\s+/g, ' ')})`
  const tries = stuck.attempts === 1 ? '1 intento' : `${stuck.attempts} intentos`
  const why = `Último error: ${notice.data.reason ?? 'sin detalle'}.`
  if (notice.type === 'delivery.dead_letter') {
    return {
      subject: `No se entregó por ${name} la solicitud de demo ${contact}`,
      lines: [
        `La solicitud de demo ${request} no se pudo entregar por ${name}: se dejó de intentar tras ${tries}.`,
        why,
        `Sigue guardada en el servidor: npm run outbox -- --failed la muestra. Una vez resuelta la causa, npm run outbox -- --resend ${stuck.requestId} la envía otra vez.`,
      ],
    }
  }
  return {
    subject: `Aviso: la solicitud de demo ${contact} no sale por ${name}`,
    lines: [
      `La solicitud de demo ${request} no sale por ${name} desde el ${arrivedAt(notice.data.since, timeZone)} (hora de ${timeZone}), aunque las demás sí salen: lleva ${tries}.`,
      why,
      `Se sigue reintentando sola, cada vez con más tiempo entre intentos, hasta tres días después de que llegó; si para entonces no sale, queda como no entregada y se avisa otra vez. Las demás solicitudes no esperan por ella.`,
      `Qué revisar: ${STUCK_CHECK[notice.subject as Channel]} Su estado: npm run outbox en el servidor.`,
    ],
  }
}

/**
 * The reps' calendars could not be read, or can again: nothing waits on them, but the visitors
 * see the usual success message instead of the free times meanwhile (decision 026).
 */
function calendarText(
  notice: Notice,
  since: string,
  timeZone: string,
): { subject: string; lines: string[] } {
  if (notice.type === 'delivery.failing') {
    return {
      subject: 'Aviso: no se puede leer la agenda de ventas',
      lines: [
        `Desde el ${since} el servidor no puede leer la agenda de al menos un representante (su calendar en LEADS_TEAM_FILE).`,
        `Último error: ${notice.data.reason ?? 'sin detalle'}.`,
        'Mientras tanto, quien envía una solicitud de demo no ve horarios para agendar: ve el mensaje de siempre (le escribiremos). Ninguna solicitud se pierde.',
        'Qué revisar: que la dirección de la agenda siga publicada (una dirección secreta que se cambió deja de servir) y que su servidor responda desde este servidor.',
      ],
    }
  }
  const until = arrivedAt(notice.data.until ?? notice.createdAt, timeZone)
  return {
    subject: 'Resuelto: el servidor vuelve a leer la agenda de ventas',
    lines: [
      `La agenda se lee de nuevo desde el ${until}; fallaba desde el ${since}. Los visitantes vuelven a ver los horarios libres.`,
    ],
  }
}

/** The notice's subject and sentences, shared by its mail and its webhook event. */
export function noticeText(notice: Notice, timeZone: string): { subject: string; lines: string[] } {
  if (notice.type === 'whatsapp.unread' && notice.data.unread !== undefined) {
    return unreadText(notice.data.unread)
  }
  if (notice.data.stuck !== undefined) return stuckText(notice, notice.data.stuck, timeZone)
  const name = CHANNEL_NAMES[notice.subject]
  const since = `${arrivedAt(notice.data.since, timeZone)} (hora de ${timeZone})`
  if (notice.type === 'demo_requests.held') {
    const held = notice.data.waiting
    if (notice.data.grew === true) {
      return {
        subject: `Aviso: la avalancha de solicitudes de demo sigue; ya hay ${held} retenidas`,
        lines: [
          `La avalancha de solicitudes de demo que empezó el ${since} sigue: ya hay ${held} solicitudes retenidas, que no se envían a nadie. Se avisa de nuevo cuando sean diez veces más.`,
          'No se pierde ninguna. Para revisarlas: npm run outbox -- --held en el servidor; las que sean de personas reales se envían con npm run outbox -- --release ID (o todas con --release-held), y el resto se borra con --erase-held.',
        ],
      }
    }
    return {
      subject:
        'Aviso: llegan demasiadas solicitudes de demo; las que pasan del límite quedan retenidas',
      lines: [
        `Desde el ${since} llegan más solicitudes de demo por minuto de las que el servidor entrega (DEMO_TOTAL_LIMIT_PER_MINUTE): parece un envío masivo.`,
        `Las que pasan del límite se guardan como retenidas y no se envían a nadie: ${held === 1 ? 'hay 1' : `hay ${held}`} por ahora.`,
        'No se pierde ninguna. Para revisarlas: npm run outbox -- --held en el servidor; las que sean de personas reales se envían con npm run outbox -- --release ID (o todas con --release-held), y el resto se borra con --erase-held.',
      ],
    }
  }
  if (notice.subject === 'calendar') return calendarText(notice, since, timeZone)
  if (notice.type === 'delivery.failing') {
    return {
      subject: `Aviso: las solicitudes de demo no salen por ${name}`,
      lines: [
        `El envío de las solicitudes de demo por ${name} falla desde el ${since}.`,
        `Último error: ${notice.data.reason ?? 'sin detalle'}.`,
        `${requestsWaiting(notice.data.waiting)} de ese envío.`,
        'No se pierde ninguna: están guardadas en el servidor y saldrán solas, cada una una vez, en cuanto el envío vuelva a funcionar. No hace falta reenviarlas.',
        `Qué revisar: ${whatToCheck(notice.subject, notice.data.reason)}`,
        'El estado de cada envío: npm run outbox en el servidor.',
      ],
    }
  }
  const until = arrivedAt(notice.data.until ?? notice.createdAt, timeZone)
  return {
    subject: `Resuelto: las solicitudes de demo vuelven a salir por ${name}`,
    lines: [
      `El envío por ${name} funciona de nuevo desde el ${until}; fallaba desde el ${since}.`,
      notice.data.waiting > 0
        ? `${requestsWaiting(notice.data.waiting)} de ese envío: salen ahora, cada una una vez.`
        : 'No quedó ninguna solicitud en espera.',
    ],
  }
}

/** The notice's mail: its sentences as paragraphs, in text and in HTML. */
export function noticeMail(
  notice: Notice,
  timeZone: string,
): { subject: string; text: string; html: string } {
  const { subject, lines } = noticeText(notice, timeZone)
  const foot = `Aviso ${notice.id}`
  const text = [...lines.flatMap((line) => [line, '']), foot, ''].join('\n')
  return { subject, text, html: noticeMailHtml(subject, lines, foot) }
}
