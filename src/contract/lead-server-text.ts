// What the lead server says in Spanish: the answers the page shows after '¡Error!' when the
// server's intake refuses a request, and the column headings of the sales team's spreadsheet.
// The production server compiles this file (tsconfig.server.json), so it imports nothing but
// the contract.
import type { AttributionParam } from './attribution.js'
import { CONTACT_NUMBER_PARAM, FIELD_NAMES, type FieldName } from './demo-request.js'

/**
 * Each field as the server names it: as a sentence names it, and as a heading (the
 * spreadsheet's column, the line of the sales team's mail and of `npm run outbox`).
 */
const fieldWords: Record<FieldName, { inSentence: string; heading: string }> = {
  user_name: { inSentence: 'el nombre completo', heading: 'Nombre' },
  user_email: { inSentence: 'el correo electrónico', heading: 'Correo' },
  user_phone: { inSentence: 'el teléfono', heading: 'Teléfono' },
  user_group: { inSentence: 'el grupo o estación', heading: 'Grupo o estación' },
  message: { inSentence: 'los comentarios', heading: 'Comentarios' },
}
const fieldInSentence = (field: FieldName): string => fieldWords[field].inSentence

const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`

export const refusals = {
  crossSite:
    'Esta solicitud no salió de nuestro sitio, así que no la registramos. Envíala desde el formulario de la página.',
  missing: (fields: readonly FieldName[]): string =>
    fields.length === 1
      ? `Falta ${fieldInSentence(fields[0]!)}.`
      : `Faltan ${listed(fields.map(fieldInSentence))}.`,
  tooLong: (field: FieldName, max: number): string =>
    `Sobran caracteres en ${fieldInSentence(field)}: caben como máximo ${max}.`,
  forbiddenCharacters: (field: FieldName | null): string =>
    `Hay caracteres invisibles o de control en ${field === null ? 'un dato de la solicitud' : fieldInSentence(field)}: bórralos y vuelve a enviarla.`,
  /** A number, a list or anything but text where the form sends text. */
  notText:
    'Cada dato de la solicitud tiene que ir como texto, como lo envía nuestro formulario, así que no la registramos.',
  /**
   * Past DEMO_TOTAL_LIMIT_PER_MINUTE once DEMO_HELD_LIMIT requests are held (or at once, with
   * no lead store): the page shows its WhatsApp and e-mail links below it.
   */
  busy: 'En este momento nos llegan más solicitudes de las que podemos registrar y la tuya no se guardó. Envíanosla por WhatsApp o por correo con los enlaces de aquí abajo, o vuelve a intentarlo en un minuto.',
  /** An e-mail address nobody can answer: the page's browser would not have sent it. */
  invalidEmail:
    'El correo electrónico no es una dirección válida: escríbelo como nombre@empresa.com y vuelve a enviar la solicitud.',
  /** The contact number the page makes is digits only. */
  contactNumberNotDigits:
    'El número de contacto de la solicitud tiene que ser solo dígitos, como lo genera nuestro formulario, así que no la registramos.',
  /** A parameter the form never sends, or one longer than the page ever makes it. */
  malformed:
    'La solicitud no tiene la forma que envía nuestro formulario, así que no la registramos.',
} as const

/**
 * What our own door (POST /api/demo-requests) answers, beyond the refusals above, when what came
 * is not what the page sends, or the request could not be kept. Each is one sentence the page
 * shows after '¡Error!'.
 */
export const doorRefusals = {
  notJson: 'La solicitud no llegó como la envía nuestro formulario, así que no la registramos.',
  tooLarge:
    'La solicitud es más grande que cualquiera que envíe nuestro formulario, así que no la registramos.',
  missingKey:
    'A la solicitud le falta la clave Idempotency-Key que nuestro formulario envía con cada una, así que no la registramos.',
  badKey:
    'La clave Idempotency-Key de la solicitud no tiene la forma que le da nuestro formulario, así que no la registramos.',
  keyReused:
    'Esta solicitud trae la clave de otra que ya registramos con datos distintos, así que no la registramos. Recarga la página y envíala de nuevo.',
  inFlight:
    'Tu solicitud se está registrando en este momento: espera unos segundos, no hace falta enviarla otra vez.',
  rateLimited:
    'Nos llegaron demasiadas solicitudes desde tu conexión en el último minuto. Espera un minuto y vuelve a enviarla.',
  notStored:
    'No pudimos guardar tu solicitud por un fallo nuestro. Vuelve a intentarlo en un momento.',
  storeFull:
    'No pudimos guardar tu solicitud porque nuestro almacén está lleno. Envíanosla por WhatsApp o por correo con los enlaces de aquí abajo, o vuelve a intentarlo más tarde.',
} as const

/** Column headings of `npm run outbox -- --xlsx`, in the order a salesperson reads them. */
export const spreadsheetHeadings: Record<
  | 'receivedAt'
  | 'contact_number'
  | FieldName
  | AttributionParam
  | 'delivery_email'
  | 'delivery_webhook'
  | 'delivery_whatsapp'
  | 'meeting'
  | 'id',
  string
> = {
  receivedAt: 'Recibida (UTC)',
  contact_number: 'Número de contacto',
  ...(Object.fromEntries(FIELD_NAMES.map((field) => [field, fieldWords[field].heading])) as Record<
    FieldName,
    string
  >),
  traffic_source: 'Origen',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_term: 'utm_term',
  utm_content: 'utm_content',
  gclid: 'gclid',
  fbclid: 'fbclid',
  referrer: 'Sitio de referencia',
  landing_page: 'Página de llegada',
  first_visit_at: 'Primera visita (UTC)',
  delivery_email: 'Envío por correo',
  delivery_webhook: 'Envío por webhook',
  delivery_whatsapp: 'Envío por WhatsApp',
  meeting: 'Demo agendada',
  id: 'Id',
}

export const spreadsheetSheetName = 'Solicitudes de demo'

type RequestLine = FieldName | typeof CONTACT_NUMBER_PARAM

/** What a person typed, with its heading, in the order the mail and the listing show it. */
export const requestLines: readonly (readonly [RequestLine, string])[] = (
  [...FIELD_NAMES, CONTACT_NUMBER_PARAM] as const
).map((name: RequestLine) => [name, spreadsheetHeadings[name]] as const)
