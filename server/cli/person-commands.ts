// `npm run outbox` for a person's access or erasure request (ARCO, GDPR): `--export PERSON`,
// `--erase PERSON|ID` and `--erasures`, the record of erasures without personal data.
import { join } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { type DeliveryConfig } from '../settings/index.js'
import { RULE_LABELS } from '../privacy/index.js'
import { leadMail } from '../channels/mail/index.js'
import { SQLITE_FILE, type StoredRequest } from '../store/index.js'
import { type DemoRequests } from '../demo-requests/index.js'
import { personOf, sentBy, type Person } from '../privacy/index.js'
import { arrivedAt, visibleControls } from '../text/index.js'
import { ChunkedOutput, stdoutHoldsNpmBanner, stdoutSink } from './output.js'
import { asJson, formatRecord, solicitudes } from './listing.js'

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
export async function exportPerson(
  store: DemoRequests | null,
  text: string,
  xlsx: boolean,
  timeZone: string,
): Promise<number> {
  const person = personOf(text)
  if (person === null) {
    console.error(`outbox: «${visibleControls(text)}» no es un correo electrónico ni un teléfono`)
    return 2
  }
  const found = store === null ? [] : await store.requestsOf(person)
  const sink = stdoutSink(stdoutHoldsNpmBanner())
  if (xlsx) {
    const { writeXlsx } = await import('./xlsx.js')
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
 * them with their deliveries in one transaction. A record of it without personal data stays
 * (`--erasures`).
 */
export async function erase(
  store: DemoRequests | null,
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
  const found = byId !== null ? [byId] : store === null ? [] : await store.requestsOf(person!)
  const ids = new Set(found.map((request) => request.id))
  const who = person !== null ? `de ${visibleControls(person.text)}` : `con el id ${byId?.id ?? ''}`
  const where = store?.location ?? join(dataDir, SQLITE_FILE)
  if (found.length === 0) {
    console.log(`No hay ninguna solicitud de demo ${who} en ${where}: nada que borrar.`)
    return 0
  }

  console.log(
    `Se borrarán para siempre ${solicitudes(found.length)} ${who}, con sus envíos, de ${where}:`,
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
    store === null ? { requests: 0, deliveries: 0 } : await store.erase([...ids], 'person-request')
  console.log(
    `Borradas: ${solicitudes(erased.requests)} y ${envios(erased.deliveries)} de ${where}. ` +
      'Queda constancia del borrado, sin datos personales: ' +
      'npm run outbox -- --erasures',
  )
  warnIfLeftInWal(erased)
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
export async function listErasures(store: DemoRequests | null, timeZone: string): Promise<number> {
  const list = store === null ? [] : await store.erasures()
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

/** Says when SQLite's WAL may still hold a copy of what an erasure removed. */
export function warnIfLeftInWal(erased: { leftInWal?: true }): void {
  if (erased.leftInWal !== true) return
  console.log(
    'Aviso: otro proceso leía el almacén sin pausa y su registro (el archivo -wal) aún puede ' +
      'guardar una copia de lo borrado, hasta que SQLite lo reutilice. Para vaciarlo ya, ' +
      'detén el servidor y vuelve a arrancarlo: al cerrarse lo vacía.',
  )
}
