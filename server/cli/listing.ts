// `npm run outbox`'s listings: a request as the sales team reads it, the channels' lines, the
// held requests apart, JSON Lines for scripts.
import { requestLines } from '../../src/contract/lead-server-text.js'
import { DEFAULT_TIME_ZONE } from '../settings/index.js'
import { type ChannelReport } from '../queue/index.js'
import { type DemoRequests } from '../demo-requests/index.js'
import { deliveryState, whatsAppLines } from './delivery-lines.js'
import {
  type ChannelState,
  type Delivery,
  type Watched,
  type StoredRequest,
  type WhatsAppRoute,
} from '../store/index.js'
import type { DemoRequestRecord } from '../store/index.js'
import { arrivedAt, visibleControls } from '../text/index.js'
import { type ChunkedOutput } from './output.js'

const KNOWN = new Set<string>(requestLines.map(([name]) => name))
const WIDTH = 20

const CHANNEL_LABELS: Record<Watched, string> = {
  email: 'Envío por correo',
  webhook: 'Envío por webhook',
  whatsapp: 'Envío por WhatsApp',
  calendar: 'Lectura de agendas',
}

function field(label: string, value: string): string {
  // Multi-line messages stay aligned under their label; what a terminal would act on is shown.
  const [first = '', ...rest] = visibleControls(value.replace(/\r\n/g, '\n')).split('\n')
  const indent = ' '.repeat(WIDTH + 2)
  return [`  ${`${label}:`.padEnd(WIDTH)}${first}`, ...rest.map((line) => indent + line)].join('\n')
}

/** Each configured channel's state, for what a pending delivery waits on. */
type ChannelStates = ReadonlyMap<Watched, ChannelState>

export function formatRecord(
  record: DemoRequestRecord & {
    deliveries?: Delivery[]
    held?: boolean
    whatsapp?: WhatsAppRoute | null
    meeting?: StoredRequest['meeting']
  },
  index: number | string,
  timeZone = DEFAULT_TIME_ZONE,
  channels: ChannelStates = new Map(),
): string {
  const when = `${arrivedAt(record.receivedAt, timeZone)} (${timeZone})`
  const lines = [`#${index}  ${visibleControls(`${when}  ${record.id}`)}`]
  for (const [name, label] of requestLines) lines.push(field(label, record.params[name] ?? '—'))
  const others = Object.keys(record.params)
    .filter((name) => !KNOWN.has(name))
    .sort()
  for (const name of others) lines.push(field(visibleControls(name), record.params[name] ?? ''))
  if (record.held === true) {
    lines.push(
      field(
        'Retenida',
        `llegó durante una avalancha; si es de una persona: npm run outbox -- --release ${record.id}`,
      ),
    )
  }
  const deliveries = record.deliveries ?? []
  if (record.meeting != null) {
    const when = arrivedAt(new Date(record.meeting.start).toISOString(), timeZone)
    lines.push(field('Demo', `${when} (${timeZone}), con ${record.meeting.rep}`))
  }
  if (deliveries.length === 0) lines.push(field('Envío', 'ninguno configurado: solo guardada'))
  for (const delivery of deliveries) {
    lines.push(
      field(
        CHANNEL_LABELS[delivery.channel],
        deliveryState(delivery, timeZone, channels.get(delivery.channel)),
      ),
    )
    if (delivery.channel === 'whatsapp' && record.whatsapp != null) {
      const shown = whatsAppLines(record.whatsapp, timeZone)
      lines.push(field(`WhatsApp (${record.whatsapp.territory})`, shown.join('\n')))
    }
  }
  return lines.join('\n')
}

export const solicitudes = (count: number): string =>
  count === 1 ? '1 solicitud de demo' : `${count} solicitudes de demo`

const retenidas = (count: number): string =>
  count === 1 ? '1 solicitud retenida' : `${count} solicitudes retenidas`

const WHAT_TO_DO_WITH_HELD =
  '\nSi alguna es de una persona, envíala: npm run outbox -- --release ID ' +
  '(o todas: npm run outbox -- --release-held).\n' +
  'Para borrar todas las retenidas: npm run outbox -- --erase-held\n'

/**
 * Writes the held requests, newest first, numbered R1… in arrival order: `heading` says what
 * they are, and what can be done with them follows.
 */
async function writeHeld(
  store: Pick<DemoRequests, 'requests'>,
  output: ChunkedOutput,
  timeZone: string,
  held: number,
  heading: string,
) {
  await output.write(heading)
  let index = held
  for await (const request of store.requests({ held: true })) {
    await output.write(`\n${formatRecord(request, `R${index--}`, timeZone)}\n`)
  }
  await output.write(WHAT_TO_DO_WITH_HELD)
}

/**
 * One line per configured channel: delivering, or failing since when, why, how many wait and
 * when the next try is.
 * @internal its tests use it too
 */
export function channelLines(reports: readonly ChannelReport[], timeZone: string): string[] {
  const when = (ms: number) => arrivedAt(new Date(ms).toISOString(), timeZone)
  return reports.map(({ state, backlog }) => {
    const label = CHANNEL_LABELS[state.channel]
    const waiting =
      backlog.pending === 1 ? 'espera 1 solicitud' : `esperan ${backlog.pending} solicitudes`
    // Dead letters wait for a person: said on every listing until they are re-sent.
    const dead =
      backlog.failed === 0
        ? ''
        : backlog.failed === 1
          ? ' 1 envío falló para siempre y espera a que alguien lo reenvíe: npm run outbox -- --failed.'
          : ` ${backlog.failed} envíos fallaron para siempre y esperan a que alguien los reenvíe: ` +
            'npm run outbox -- --failed.'
    if (state.failingSince === null) {
      return `${label}: entrega con normalidad${backlog.pending > 0 ? ` (${waiting})` : ''}.${dead}`
    }
    const next =
      state.nextProbeAt !== null && state.nextProbeAt > Date.now()
        ? `próximo intento el ${when(state.nextProbeAt)}`
        : 'próximo intento en unos segundos'
    return (
      `${label}: FALLA desde el ${when(state.failingSince)} (${visibleControls(state.lastError ?? 'sin detalle')}); ` +
      `${waiting}, ninguna se pierde; ${next}.${dead}`
    )
  })
}

/** Writes the readable listing, newest first, numbered in arrival order; held ones apart. */
export async function writeListing(
  store: DemoRequests,
  output: ChunkedOutput,
  timeZone: string,
  only: 'failed' | 'held' | null,
) {
  let channels: ChannelStates = new Map()
  if (store.channels.length > 0) {
    const reports = await store.channelReports()
    channels = new Map(reports.map((report) => [report.state.channel, report.state]))
    await output.write(`${channelLines(reports, timeZone).join('\n')}\n\n`)
  }
  const failedOnly = only === 'failed'
  const total = await store.count()
  const held = await store.heldCount()
  if (only === 'held') {
    if (held === 0) await output.write(`No hay solicitudes retenidas (en ${store.location}).\n`)
    else {
      await writeHeld(
        store,
        output,
        timeZone,
        held,
        `${retenidas(held)} en ${store.location}, de la más reciente a la más antigua. ` +
          'Llegaron durante una avalancha y no se han enviado a nadie:\n',
      )
    }
    await output.flush()
    return
  }
  if (total === 0) {
    await output.write(`Todavía no hay solicitudes de demo guardadas (en ${store.location}).\n`)
    await output.flush()
    return
  }
  if (failedOnly) {
    let shown = 0
    for await (const request of store.requests({ failedOnly })) {
      if (shown++ === 0) {
        await output.write(
          `Solicitudes con envíos fallidos en ${store.location}, de la más reciente a la más antigua:\n`,
        )
      }
      await output.write(`\n${formatRecord(request, shown, timeZone, channels)}\n`)
    }
    if (shown === 0) await output.write(`Ningún envío ha fallado (en ${store.location}).\n`)
    else {
      await output.write(
        '\nPara volver a enviarlas: npm run outbox -- --resend ID, o todas: npm run outbox -- --resend-failed\n',
      )
    }
    await output.flush()
    return
  }
  if (held > 0) {
    await output.write(
      held === 1
        ? 'Atención: 1 solicitud llegó durante una avalancha y quedó retenida sin enviar ' +
            '(está al final de la lista).\n\n'
        : `Atención: ${held} solicitudes llegaron durante una avalancha y quedaron retenidas ` +
            'sin enviar (están al final de la lista).\n\n',
    )
  }
  const others = total - held
  if (others > 0) {
    await output.write(
      `${solicitudes(others)} en ${store.location}, de la más reciente a la más antigua:\n`,
    )
  }
  let index = others
  for await (const request of store.requests({ held: false })) {
    await output.write(`\n${formatRecord(request, index--, timeZone, channels)}\n`)
  }
  if (held > 0) {
    await writeHeld(
      store,
      output,
      timeZone,
      held,
      `${others > 0 ? '\n' : ''}Retenidas (${held}), de la más reciente a la más antigua: llegaron ` +
        'cuando entraban más solicitudes por minuto de las que el servidor envía ' +
        '(DEMO_TOTAL_LIMIT_PER_MINUTE), casi siempre de un robot:\n',
    )
  }
  await output.flush()
}

/** Every request as one JSON line, oldest first: for scripts. */
export async function writeJsonLines(store: Pick<DemoRequests, 'requests'>, output: ChunkedOutput) {
  let count = 0
  for await (const request of store.requests({ oldestFirst: true })) {
    count++
    await output.write(`${JSON.stringify(asJson(request))}\n`)
  }
  await output.flush()
  return count
}

/**
 * One request as `--json` prints it.
 * @internal its tests use it too
 */
export const asJson = (request: StoredRequest) => ({
  id: request.id,
  receivedAt: request.receivedAt,
  serviceId: request.serviceId,
  templateId: request.templateId,
  params: request.params,
  held: request.held,
  ...(request.meeting != null && {
    meeting: {
      start: new Date(request.meeting.start).toISOString(),
      end: new Date(request.meeting.end).toISOString(),
      rep: request.meeting.rep,
    },
  }),
  deliveries: request.deliveries.map((delivery) => ({
    channel: delivery.channel,
    state: delivery.state,
    attempts: delivery.attempts,
    nextAttemptAt:
      delivery.state === 'pending' ? new Date(delivery.nextAttemptAt).toISOString() : null,
    lastError: delivery.lastError,
    deliveredAt: delivery.deliveredAt,
    ...(delivery.channel === 'whatsapp' &&
      request.whatsapp !== null && {
        rep: request.whatsapp.rep,
        territory: request.whatsapp.territory,
        exhaustedAt: isoOrNull(request.whatsapp.exhaustedAt),
        messages: request.whatsapp.messages.map((message) => ({
          rep: message.rep,
          wamid: message.wamid,
          sentAt: isoOrNull(message.sentAt),
          deliveredAt: isoOrNull(message.deliveredAt),
          readAt: isoOrNull(message.readAt),
          failedAt: isoOrNull(message.failedAt),
          failure: message.failure,
          movedOnAt: isoOrNull(message.movedOnAt),
          movedOnBecause: message.movedOnBecause,
        })),
      }),
  })),
})

const isoOrNull = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString()
