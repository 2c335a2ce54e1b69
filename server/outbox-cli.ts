// `npm run outbox`: the sales team's commands, in Spanish. Alone it lists the stored demo
// requests newest first, each with how its deliveries went; `--xlsx > solicitudes.xlsx` exports
// them as a spreadsheet and `--csv > solicitudes.csv` as CSV (oldest first); `--failed` lists the
// dead letters, `--resend ID` and `--resend-failed` send them again; `--json` prints every request
// as JSON Lines for scripts; `--import FILE` brings in an older server's outbox.jsonl. Requests
// held during a flood are listed apart (`--held` alone), and `--release ID`, `--release-held`
// or `--erase-held` decide what becomes of them.
// For a person's access or erasure request (ARCO, GDPR): `--export PERSON` prints every request
// of one e-mail address or phone number as JSON (`--xlsx`: a spreadsheet), `--erase PERSON|ID`
// shows what will go, asks, and erases it for good (`--yes`: without asking), and `--erasures`
// lists the record of erasures, which holds no personal data.
// It reads the server's own store (SQLite in DATA_DIR, default <repo>/.data, or PostgreSQL when
// DATABASE_URL is set), also while the server runs, in pages: memory stays flat. It runs from the
// build (scripts/outbox.mjs) with no dev dependencies.
import { constants, fstatSync, ftruncateSync, readFileSync, writeSync } from 'node:fs'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { requestLines } from '../src/contract/lead-server-text.js'
import { SettingError } from '../src/config/env-settings.js'
import { DEFAULT_TIME_ZONE, readConfig, type DeliveryConfig, type ServerConfig } from './config.js'
import { channelReports, type ChannelReport } from './delivery-health.js'
import { deliveryChannels } from './delivery.js'
import { RULE_LABELS, erasures } from './erasure-log.js'
import { arrivedAt, deliveryState, leadMail, whatsAppLines } from './lead-mail.js'
import { eraseRequests, requestsOf } from './lead-privacy.js'
import {
  SQLITE_FILE,
  StoreError,
  openLeadStore,
  type Channel,
  type Delivery,
  type LeadStore,
  type StoredRequest,
  type WhatsAppRoute,
} from './lead-store.js'
import { countInDataDirOutbox, dropFromDataDirOutbox } from './outbox-file-erasure.js'
import { writeCsv } from './outbox-csv.js'
import { importOutboxFile } from './outbox-import.js'
import type { DemoRequestRecord } from './demo-request-record.js'
import { OUTBOX_FILE } from './outbox-file.js'
import { writeXlsx } from './outbox-xlsx.js'
import { personOf, sentBy, type Person } from './person-match.js'
import { visibleControls } from './visible-text.js'

const KNOWN = new Set<string>(requestLines.map(([name]) => name))
const WIDTH = 20

const USAGE = [
  'uso: npm run outbox                  las solicitudes de demo guardadas, de la más reciente a la',
  '                                     más antigua, con cómo va el envío de cada una',
  '     npm run outbox -- --xlsx > solicitudes.xlsx',
  '                                     una hoja de cálculo (cada celda como texto, las más antiguas primero)',
  '     npm run outbox -- --csv > solicitudes.csv',
  '                                     CSV (UTF-8, las más antiguas primero)',
  '     npm run outbox -- --failed      solo las que no se pudieron entregar',
  '     npm run outbox -- --resend ID   vuelve a enviar los envíos fallidos de una solicitud',
  '     npm run outbox -- --resend-failed',
  '                                     vuelve a enviar todos los envíos fallidos',
  '     npm run outbox -- --held        solo las retenidas: llegaron durante una avalancha de',
  '                                     solicitudes y no se envían hasta que alguien lo decida',
  '     npm run outbox -- --release ID  envía una solicitud retenida',
  '     npm run outbox -- --release-held',
  '                                     envía todas las retenidas',
  '     npm run outbox -- --erase-held  borra para siempre todas las retenidas',
  '     npm run outbox -- --json        todas, como JSON Lines, para scripts',
  '     npm run outbox -- --import outbox.jsonl',
  '                                     importa el outbox.jsonl de un servidor anterior (por id)',
  '     npm run outbox -- --export PERSONA > datos.json',
  '                                     todas las solicitudes de una persona (su correo o su teléfono),',
  '                                     en JSON; con --xlsx, en hoja de cálculo',
  '     npm run outbox -- --erase PERSONA|ID',
  '                                     muestra sus solicitudes, pregunta y las borra para siempre con',
  '                                     sus envíos (--yes: sin preguntar)',
  '     npm run outbox -- --erasures    los borrados hechos: cuándo, cuántas y por qué, sin datos personales',
].join('\n')
/** The commands and what they take, as node:util's parseArgs reads them. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  csv: { type: 'boolean' },
  xlsx: { type: 'boolean' },
  failed: { type: 'boolean' },
  'resend-failed': { type: 'boolean' },
  json: { type: 'boolean' },
  held: { type: 'boolean' },
  'release-held': { type: 'boolean' },
  'erase-held': { type: 'boolean' },
  erasures: { type: 'boolean' },
  yes: { type: 'boolean' },
  resend: { type: 'string' },
  import: { type: 'string' },
  release: { type: 'string' },
  export: { type: 'string' },
  erase: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

const CHANNEL_LABELS: Record<Channel, string> = {
  email: 'Envío por correo',
  webhook: 'Envío por webhook',
  whatsapp: 'Envío por WhatsApp',
}

function field(label: string, value: string): string {
  // Multi-line messages stay aligned under their label; what a terminal would act on is shown.
  const [first = '', ...rest] = visibleControls(value.replace(/\r\n/g, '\n')).split('\n')
  const indent = ' '.repeat(WIDTH + 2)
  return [`  ${`${label}:`.padEnd(WIDTH)}${first}`, ...rest.map((line) => indent + line)].join('\n')
}

export function formatRecord(
  record: DemoRequestRecord & {
    deliveries?: Delivery[]
    held?: boolean
    whatsapp?: WhatsAppRoute | null
  },
  index: number | string,
  timeZone = DEFAULT_TIME_ZONE,
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
  if (deliveries.length === 0) lines.push(field('Envío', 'ninguno configurado: solo guardada'))
  for (const delivery of deliveries) {
    lines.push(field(CHANNEL_LABELS[delivery.channel], deliveryState(delivery, timeZone)))
    if (delivery.channel === 'whatsapp' && record.whatsapp != null) {
      const shown = whatsAppLines(record.whatsapp, timeZone)
      lines.push(field(`WhatsApp (${record.whatsapp.territory})`, shown.join('\n')))
    }
  }
  return lines.join('\n')
}

/** Collects output into large chunks and waits for the sink: memory stays flat. */
export class ChunkedOutput {
  private parts: string[] = []
  private pending = 0

  constructor(private readonly sink: (chunk: string) => Promise<void>) {}

  async write(text: string): Promise<void> {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= 256 * 1024) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return
    const chunk = this.parts.join('')
    this.parts = []
    this.pending = 0
    await this.sink(chunk)
  }
}

const solicitudes = (count: number): string =>
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
  store: LeadStore,
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
    if (state.failingSince === null) {
      return `${label}: entrega con normalidad${backlog.pending > 0 ? ` (${waiting})` : ''}.`
    }
    const next =
      state.nextProbeAt !== null && state.nextProbeAt > Date.now()
        ? `próximo intento el ${when(state.nextProbeAt)}`
        : 'próximo intento en unos segundos'
    return (
      `${label}: FALLA desde el ${when(state.failingSince)} (${visibleControls(state.lastError ?? 'sin detalle')}); ` +
      `${waiting}, ninguna se pierde; ${next}.`
    )
  })
}

/** Writes the readable listing, newest first, numbered in arrival order; held ones apart. */
async function writeListing(
  store: LeadStore,
  output: ChunkedOutput,
  { timeZone, channels, alertAfterMs }: DeliveryConfig & { channels: Channel[] },
  only: 'failed' | 'held' | null,
) {
  if (channels.length > 0) {
    const reports = await channelReports(store, channels, alertAfterMs)
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
      await output.write(`\n${formatRecord(request, shown, timeZone)}\n`)
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
    await output.write(`\n${formatRecord(request, index--, timeZone)}\n`)
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
async function writeJsonLines(store: LeadStore, output: ChunkedOutput) {
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

const envios = (count: number): string => (count === 1 ? '1 envío' : `${count} envíos`)

/**
 * The other addresses or numbers the person's requests carry: the person may have written
 * others with them, which a second search by those finds.
 */
function otherContacts(person: Person, found: readonly StoredRequest[]): string[] {
  const field = person.kind === 'email' ? 'user_phone' : 'user_email'
  const shown: Person[] = []
  for (const request of found) {
    const contact = personOf(request.params[field] ?? '')
    if (contact === null || shown.some((each) => sentBy(each, { [field]: contact.text }))) continue
    shown.push(contact)
  }
  return shown.map((contact) => contact.text)
}

function tellOtherContacts(person: Person, found: readonly StoredRequest[]): void {
  const others = otherContacts(person, found).map((other) => `«${visibleControls(other)}»`)
  if (others.length === 0) return
  const listed =
    others.length === 1 ? others[0] : `${others.slice(0, -1).join(', ')} y ${others.at(-1)}`
  const what =
    person.kind === 'email'
      ? others.length === 1
        ? 'el teléfono'
        : 'los teléfonos'
      : others.length === 1
        ? 'el correo'
        : 'los correos'
  console.error(
    `outbox: en ellas figura también ${what} ${listed}: ` +
      `${others.length === 1 ? 'búscalo' : 'búscalos'} también, por si la persona escribió ` +
      'otras veces con otro dato.',
  )
}

/** `--export PERSON`: every request of one person, as JSON or (`--xlsx`) a spreadsheet. */
async function exportPerson(
  store: LeadStore | null,
  text: string,
  xlsx: boolean,
  timeZone: string,
): Promise<number> {
  const person = personOf(text)
  if (person === null) {
    console.error(`outbox: «${visibleControls(text)}» no es un correo electrónico ni un teléfono`)
    return 2
  }
  const found = store === null ? [] : await requestsOf(store, person)
  const sink = stdoutSink(stdoutHoldsNpmBanner())
  if (xlsx) {
    await writeXlsx(
      {
        requests: async function* () {
          yield* found
        },
      },
      sink,
      timeZone,
    )
  } else {
    const output = new ChunkedOutput(sink)
    await output.write(`${JSON.stringify(found.map(asJson), null, 2)}\n`)
    await output.flush()
  }
  console.error(
    store === null
      ? `outbox: todavía no hay solicitudes guardadas; ninguna de ${visibleControls(person.text)}`
      : `outbox: ${solicitudes(found.length)} de ${visibleControls(person.text)} exportadas de ` +
          store.location,
  )
  tellOtherContacts(person, found)
  return 0
}

async function ask(question: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return await prompt.question(question)
  } finally {
    prompt.close()
  }
}

/** The copies an erasure cannot reach: what was already mailed or posted to the CRM. */
function copiesElsewhere(found: readonly StoredRequest[], delivery: DeliveryConfig): string[] {
  const copies: string[] = []
  for (const request of found) {
    for (const sent of request.deliveries) {
      if (sent.channel === 'email') {
        // Recipients who took it, even while others still wait; all of them once delivered.
        const to =
          sent.doneRecipients.length > 0
            ? sent.doneRecipients
            : sent.state === 'delivered'
              ? (delivery.email?.to ?? [])
              : null
        if (to === null) continue
        copies.push(
          `  - el correo «${visibleControls(leadMail(request, delivery.timeZone).subject)}»` +
            (to.length > 0 ? ` enviado a ${to.join(', ')}` : '') +
            ` (id ${request.id})`,
        )
      } else if (sent.channel === 'webhook' && sent.state === 'delivered') {
        copies.push(
          '  - lo que recibió el CRM por webhook' +
            (delivery.webhook ? ` (${new URL(delivery.webhook.url).origin})` : '') +
            ` con el id ${request.id}`,
        )
      }
    }
    // Each message the Cloud API took sits in that rep's WhatsApp chat.
    for (const message of request.whatsapp?.messages ?? []) {
      if (message.wamid === null) continue
      copies.push(`  - el mensaje de WhatsApp enviado a ${message.rep} (id ${request.id})`)
    }
  }
  return copies
}

/**
 * `--erase PERSON|ID`: shows the requests that will go, asks (unless `--yes`), then erases
 * them with their deliveries in one transaction, and their lines in an outbox.jsonl kept in
 * DATA_DIR. A record of it without personal data stays (`--erasures`).
 */
async function erase(
  store: LeadStore | null,
  text: string,
  yes: boolean,
  dataDir: string,
  delivery: DeliveryConfig,
): Promise<number> {
  // An id first: one made of digits and dashes would otherwise read as a phone number.
  const byId = store === null ? null : await store.request(text.trim())
  const person = byId === null ? personOf(text) : null
  if (byId === null && person === null) {
    console.error(
      `outbox: «${visibleControls(text)}» no es un correo electrónico, un teléfono ni el id de ` +
        'una solicitud guardada',
    )
    return 2
  }
  const found = byId !== null ? [byId] : store === null ? [] : await requestsOf(store, person!)
  const ids = new Set(found.map((request) => request.id))
  const picks = (record: DemoRequestRecord): boolean =>
    ids.has(record.id) || (person !== null && sentBy(person, record.params))
  const inFile = await countInDataDirOutbox(dataDir, picks)
  const who = person !== null ? `de ${visibleControls(person.text)}` : `con el id ${byId?.id ?? ''}`
  const where = store?.location ?? join(dataDir, SQLITE_FILE)
  if (found.length === 0 && inFile === 0) {
    console.log(`No hay ninguna solicitud de demo ${who} en ${where}: nada que borrar.`)
    return 0
  }

  const fileNote =
    inFile > 0
      ? ` y ${inFile === 1 ? '1 línea' : `${inFile} líneas`} de ${join(dataDir, OUTBOX_FILE)}`
      : ''
  console.log(
    `Se borrarán para siempre ${solicitudes(found.length)} ${who}, con sus envíos, de ` +
      `${where}${fileNote}:`,
  )
  found.forEach((request, index) => {
    console.log(`\n${formatRecord(request, index + 1, delivery.timeZone)}`)
  })
  console.log('')
  if (person !== null) tellOtherContacts(person, found)
  if (!yes) {
    if (!process.stdin.isTTY) {
      console.error(
        'outbox: no se borró nada: sin una terminal en la que confirmarlo, el borrado solo se ' +
          'hace con --yes (npm run outbox -- --erase … --yes)',
      )
      return 2
    }
    const answer = await ask('¿Las borro para siempre? Escribe «sí» para confirmar: ')
    if (!/^s[ií]?$/i.test(answer.trim())) {
      console.log('No se borró nada.')
      return 1
    }
  }

  const erased =
    store === null
      ? { requests: 0, deliveries: 0 }
      : await eraseRequests(store, [...ids], 'person-request')
  const lines = await dropFromDataDirOutbox(dataDir, store?.location ?? '', picks)
  const fileDone =
    lines !== null && lines.removed > 0
      ? ` y ${lines.removed === 1 ? '1 línea' : `${lines.removed} líneas`} de ${join(dataDir, OUTBOX_FILE)}` +
        (lines.fileRemoved ? ' (no quedaba ninguna otra: el archivo ya no existe)' : '')
      : ''
  console.log(
    `Borradas: ${solicitudes(erased.requests)} y ${envios(erased.deliveries)} de ${where}` +
      `${fileDone}. Queda constancia del borrado, sin datos personales: ` +
      'npm run outbox -- --erasures',
  )
  if (erased.leftInWal === true) {
    console.log(
      'Aviso: otro proceso leía el almacén sin pausa y su registro (el archivo -wal) aún puede ' +
        'guardar una copia de lo borrado, hasta que SQLite lo reutilice. Para vaciarlo ya, ' +
        'detén el servidor y vuelve a arrancarlo: al cerrarse lo vacía.',
    )
  }
  const copies = copiesElsewhere(found, delivery)
  if (copies.length > 0) {
    console.log(
      [
        'Fuera de este servidor quedan copias que hay que borrar a mano (docs/sales-team.md):',
        ...copies,
      ].join('\n'),
    )
  }
  return 0
}

/** `--erasures`: the record of erasures, newest first. */
async function listErasures(store: LeadStore | null, timeZone: string): Promise<number> {
  const list = store === null ? [] : await erasures(store.db)
  if (list.length === 0) {
    console.log('Todavía no se ha borrado ninguna solicitud.')
    return 0
  }
  console.log(
    `Borrados en ${store?.location ?? ''}, del más reciente al más antiguo (sin datos personales):`,
  )
  for (const erasure of list) {
    console.log(
      `  ${arrivedAt(erasure.erasedAt, timeZone)} (${timeZone})  ` +
        `por ${RULE_LABELS[erasure.rule]}: ${solicitudes(erasure.requests)}, ` +
        envios(erasure.deliveries),
    )
  }
  return 0
}

/**
 * `npm run outbox -- --csv > file` (not silent) has npm print its "> gaspre-landing@1.0.0
 * outbox" banner into the file before this process starts. When standard output is a file the
 * shell truncated (not opened for appending) and already holds those few bytes, they are
 * npm's, and the CSV is written over them from the first byte, so the file starts with the BOM.
 */
function stdoutHoldsNpmBanner(): boolean {
  if (process.env.npm_lifecycle_event === undefined) return false
  try {
    const stats = fstatSync(1)
    if (!stats.isFile() || stats.size === 0 || stats.size > 1024) return false
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))?.[1]
    return flags !== undefined && (parseInt(flags, 8) & constants.O_APPEND) === 0
  } catch {
    return false // not Linux, or no way to tell: leave the file alone
  }
}

function stdoutSink(overwriteBanner: boolean): (chunk: string | Buffer) => Promise<void> {
  if (overwriteBanner) {
    ftruncateSync(1, 0)
    let position = 0
    return async (chunk) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      for (let done = 0; done < bytes.length;) {
        done += writeSync(1, bytes, done, bytes.length - done, position + done)
      }
      position += bytes.length
    }
  }
  return (chunk) =>
    new Promise((resolveWrite) => {
      if (process.stdout.write(chunk)) resolveWrite()
      else process.stdout.once('drain', resolveWrite)
    })
}

type Parsed = { flags: Set<string>; values: Map<string, string> } | string

/**
 * The command line as flags (`--csv`) and values (`--resend` → ID), or why it cannot be run.
 * parseArgs reads it leniently, so that each mistake is told in Spanish here.
 */
function readArguments(argv: readonly string[]): Parsed {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const flags = new Set<string>()
  const values = new Map<string, string>()
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue
    if (token.kind === 'positional') {
      return `no sé qué hacer con «${visibleControls(token.value)}»: cada opción empieza por --`
    }
    const option = Object.hasOwn(OPTIONS, token.name)
      ? OPTIONS[token.name as keyof typeof OPTIONS]
      : undefined
    const name = `--${token.name}`
    if (option === undefined) return `opción desconocida ${visibleControls(token.rawName)}`
    if (option.type === 'boolean') {
      if (token.value !== undefined) return `${name} no lleva valor`
      flags.add(name)
    } else {
      // Without `=`, parseArgs takes the next argument whatever it is: `--resend --csv`.
      const value = token.value
      if (value === undefined || (token.inlineValue !== true && value.startsWith('--'))) {
        return `a ${name} le falta su valor`
      }
      values.set(name, value)
    }
  }
  if (flags.has('--yes') && !values.has('--erase')) return '--yes solo acompaña a --erase'
  // --xlsx shapes an export, --yes an erasure: neither is a second command then.
  const chosen = [...flags, ...values.keys()].filter(
    (arg) => arg !== '--help' && arg !== '--yes' && !(arg === '--xlsx' && values.has('--export')),
  )
  if (chosen.length > 1) return `elige una sola de ${chosen.join(' y ')}`
  return { flags, values }
}

/** Opens the server's store (SQLite in DATA_DIR, or PostgreSQL). */
function openStore(config: ServerConfig): Promise<LeadStore> {
  // The CLI writes only the deliveries it re-sends: the cap is the server's to keep.
  return openLeadStore(
    { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
    { maxBytes: config.outboxMaxBytes, largestRecordBytes: 0 },
  )
}

/** Whether there is a store to read: none in DATA_DIR means nothing was stored yet. */
const storeExists = (config: ServerConfig): boolean =>
  config.databaseUrl !== undefined || existsSync(join(config.dataDir, SQLITE_FILE))

/**
 * `--release ID` and `--release-held` let held requests go (the server sends them within
 * seconds); `--erase-held` erases them. Resolves to the exit code.
 */
async function decideOnHeld(
  store: LeadStore | null,
  release: string | undefined,
  erase: boolean,
): Promise<number> {
  if (store === null) {
    console.error('outbox: todavía no hay solicitudes guardadas')
    return 1
  }
  if (erase) {
    const erased = await store.eraseHeldRequests()
    console.log(
      erased === 0
        ? 'No había solicitudes retenidas.'
        : `${erased === 1 ? '1 solicitud retenida borrada' : `${erased} solicitudes retenidas borradas`} para siempre.`,
    )
    return 0
  }
  if (release !== undefined) {
    const request = await store.request(release)
    if (request === null) {
      console.error(`outbox: no hay ninguna solicitud con el id ${release}`)
      return 1
    }
    if (!request.held) {
      console.error(`outbox: la solicitud ${release} no está retenida`)
      return 1
    }
  }
  const released = await store.releaseHeldRequests(release)
  console.log(
    released === 0
      ? 'No había solicitudes retenidas.'
      : released === 1
        ? '1 solicitud liberada: el servidor la envía en unos segundos, como cualquier otra.'
        : `${released} solicitudes liberadas: el servidor las envía en unos segundos, como cualquier otra.`,
  )
  return 0
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const parsed = readArguments(argv)
  if (typeof parsed === 'string') {
    console.error(`outbox: ${parsed}\n${USAGE}`)
    return 2
  }
  const { flags, values } = parsed
  if (flags.has('--help')) {
    console.log(USAGE)
    return 0
  }
  if (flags.has('--xlsx') && process.stdout.isTTY) {
    console.error('outbox: --xlsx escribe un archivo: npm run outbox -- --xlsx > solicitudes.xlsx')
    return 2
  }
  // A reader that stops early (| head) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })

  let store: LeadStore | null = null
  try {
    // Built, this file is build/server/outbox-cli.js: the repository is two folders up.
    const config = readConfig(process.env, fileURLToPath(new URL('../../', import.meta.url)))
    const { delivery } = config
    const { timeZone } = delivery
    const importing = values.get('--import')
    if (importing !== undefined) {
      store = await openStore(config)
      const file = resolve(importing)
      if (!existsSync(file)) {
        console.error(`outbox: no existe ${file}`)
        return 1
      }
      const { read, imported, skipped } = await importOutboxFile(store, file)
      const torn =
        skipped > 0
          ? `; ${skipped} ${skipped === 1 ? 'línea ilegible omitida' : 'líneas ilegibles omitidas'}`
          : ''
      console.error(
        `outbox: ${imported} de ${read} solicitudes importadas de ${file} a ${store.location} ` +
          `(las demás ya estaban)${torn}; el archivo queda como estaba`,
      )
      return 0
    }
    store = storeExists(config) ? await openStore(config) : null
    const person = values.get('--export') ?? values.get('--erase')
    if (person !== undefined || flags.has('--erasures')) {
      if (values.has('--export')) {
        return await exportPerson(store, person!, flags.has('--xlsx'), timeZone)
      }
      if (person !== undefined) {
        return await erase(store, person, flags.has('--yes'), config.dataDir, config.delivery)
      }
      return await listErasures(store, timeZone)
    }
    const resend = values.get('--resend')
    if (resend !== undefined || flags.has('--resend-failed')) {
      if (store === null) {
        console.error('outbox: todavía no hay solicitudes guardadas')
        return 1
      }
      if (resend !== undefined && (await store.request(resend)) === null) {
        console.error(`outbox: no hay ninguna solicitud con el id ${resend}`)
        return 1
      }
      const queued = await store.resendFailed(resend)
      console.log(
        queued === 0
          ? 'No había envíos fallidos que reenviar.'
          : `${queued} ${queued === 1 ? 'envío vuelve' : 'envíos vuelven'} a la cola: el servidor ` +
              'los manda en unos segundos y los reintenta hasta tres días.',
      )
      return 0
    }
    const release = values.get('--release')
    if (release !== undefined || flags.has('--release-held') || flags.has('--erase-held')) {
      return await decideOnHeld(store, release, flags.has('--erase-held'))
    }
    if (store === null) {
      if (flags.has('--json')) return 0
      if (flags.has('--xlsx') || flags.has('--csv')) {
        console.error('outbox: todavía no hay solicitudes guardadas')
        return 1
      }
      console.log(
        `Todavía no hay solicitudes de demo guardadas (en ${join(config.dataDir, SQLITE_FILE)}).`,
      )
      return 0
    }
    if (flags.has('--xlsx')) {
      const count = await writeXlsx(store, stdoutSink(stdoutHoldsNpmBanner()), timeZone)
      console.error(`outbox: ${solicitudes(count)} exportadas de ${store.location}`)
    } else if (flags.has('--csv')) {
      const output = new ChunkedOutput(stdoutSink(stdoutHoldsNpmBanner()))
      const count = await writeCsv(store, (text) => output.write(text))
      await output.flush()
      console.error(`outbox: ${solicitudes(count)} exportadas de ${store.location}`)
    } else if (flags.has('--json')) {
      await writeJsonLines(store, new ChunkedOutput(stdoutSink(false)))
    } else {
      await writeListing(
        store,
        new ChunkedOutput(stdoutSink(false)),
        { ...delivery, channels: deliveryChannels(delivery) },
        flags.has('--failed') ? 'failed' : flags.has('--held') ? 'held' : null,
      )
    }
  } catch (error) {
    const known = error instanceof StoreError || error instanceof SettingError
    console.error(
      `outbox: ${known || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : error.message}`,
    )
    return 1
  } finally {
    await store?.close()
  }
  return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
