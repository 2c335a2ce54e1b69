import { z } from 'zod'
import { anchors } from './anchors.ts'

/**
 * What the files in content/ may hold: each field's name as the page shows it (the CMS labels
 * its fields with these, and every message quotes them), and the rules that keep the page
 * whole. The build and the dev server check every content file against this, so a broken edit
 * stops with a sentence a marketer can act on instead of reaching a visitor
 * (pipeline/loader/read.ts). The TypeScript types of the content are inferred from here.
 *
 * The lengths are where a longer text breaks the layout at 320 px, measured by
 * e2e/content-limits.spec.ts.
 */

/** How a field is described to the person who edits it: its label, and a hint if it needs one. */
type Label = { readonly label: string; readonly hint?: string }

const described = <Schema extends z.ZodType>(schema: Schema, { label, hint }: Label) =>
  schema.meta({ title: label, ...(hint ? { description: hint } : {}) })

const typeError = (label: string, expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `falta «${label}»` : `«${label}» debe ser ${expected}`

/** A text a visitor reads, at most `max` characters. */
function text(label: string, max: number, hint?: string) {
  return described(
    z
      .string({ error: typeError(label, 'un texto (entre comillas si empieza por un signo)') })
      .min(1, `«${label}» está vacío: escribe el texto`)
      .max(max, {
        error: (issue) =>
          `«${label}» tiene ${String(issue.input).length} caracteres y caben ${max}: acórtalo`,
      }),
    { label, ...(hint ? { hint } : {}) },
  )
}

/**
 * The hint on a text the site contract (../shared/CONTRACT.md) fixes word for word: an outside
 * suite checks every build for it, and src/copy/contract.test.ts fails on a change.
 */
const FIXED_BY_CONTRACT =
  'El contrato del sitio fija este texto palabra por palabra: si lo cambias, las comprobaciones del sitio fallan. Consúltalo antes con el equipo técnico.'

/** A text that may be left empty. */
const optionalText = (label: string, max: number) =>
  described(
    z.string({ error: typeError(label, 'un texto') }).max(max, {
      error: (issue) =>
        `«${label}» tiene ${String(issue.input).length} caracteres y caben ${max}: acórtalo`,
    }),
    { label },
  )

/** A text with `{name}` gaps the page fills in, each of which must be there. */
function template(label: string, max: number, gaps: readonly string[]) {
  const hint = `Escribe ${gaps.map((gap) => `{${gap}}`).join(' y ')} donde va ese dato.`
  return text(label, max, hint).refine(
    (value) => gaps.every((gap) => value.includes(`{${gap}}`)),
    `«${label}» debe llevar ${gaps.map((gap) => `{${gap}}`).join(' y ')}, donde la página pone el dato`,
  )
}

/** The fragment ids the home page has, the only `#…` a home page link can point at. */
const homeFragments: readonly string[] = Object.values(anchors)

/**
 * Where a link on the site may lead: a secure page (https:), an e-mail (mailto:), a phone
 * (tel:), one of the site's own pages (/tyc, /tyc#…), or a section of the home page (#…).
 * Anything else (javascript:, data:, http:) could run a script or leave the visitor unsafe.
 */
export function isAllowedHref(href: string): boolean {
  if (href.startsWith('#')) return homeFragments.includes(href.slice(1))
  if (href.startsWith('/')) return /^\/(?!\/)[\w\-./]*(#[\w-]+)?$/.test(href)
  if (/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/.test(href)) return true
  if (/^tel:\+?[\d\s-]{7,20}$/.test(href)) return true
  try {
    const url = new URL(href)
    return url.protocol === 'https:' && url.hostname.includes('.') && !/\s/.test(href)
  } catch {
    return false
  }
}

const href = (label: string) =>
  described(
    z.string({ error: typeError(label, 'una dirección') }).refine(
      isAllowedHref,
      `«${label}» no es un enlace permitido: usa una dirección https://, mailto:, tel:, una página del sitio (/tyc) o una sección de la página de inicio (${homeFragments
        .slice(0, 3)
        .map((id) => `#${id}`)
        .join(', ')}…)`,
    ),
    { label },
  )

const link = (label: string, max: number) =>
  described(
    z.strictObject({
      label: text(`${label}: texto`, max),
      href: href(`${label}: dirección`),
    }),
    { label },
  )

/** A list of exactly `count` items, or between `min` and `max`. */
function list<Item extends z.ZodType>(
  label: string,
  item: Item,
  size: { readonly count: number } | { readonly min: number; readonly max: number },
) {
  const [min, max] = 'count' in size ? [size.count, size.count] : [size.min, size.max]
  const expected = min === max ? `exactamente ${min}` : `entre ${min} y ${max}, como pide el diseño`
  return described(
    z
      .array(item, { error: typeError(label, 'una lista (cada elemento en una línea con «- »)') })
      .min(min, {
        error: (issue) =>
          `«${label}» tiene ${(issue.input as unknown[]).length} y deben ser ${expected}`,
      })
      .max(max, {
        error: (issue) =>
          `«${label}» tiene ${(issue.input as unknown[]).length} y deben ser ${expected}`,
      }),
    { label },
  )
}

/** A group of fields; a field the site does not know is refused, as it is usually a typo. */
const group = <Shape extends z.ZodRawShape>(label: string, shape: Shape) =>
  described(
    z.strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `«${label}» tiene ${issue.keys.length === 1 ? 'un campo' : 'campos'} que el sitio no usa: ${issue.keys.map((key) => `«${key}»`).join(', ')}; revisa cómo está escrito`
          : issue.input === undefined
            ? `falta «${label}»`
            : `«${label}» debe ser un grupo de campos, cada uno en su línea con sangría`,
    }),
    { label },
  )

/** An image the build takes from content/imagenes/, checks and optimises (content plugin). */
type ContentImage = { readonly src: string; readonly width: number; readonly height: number }

/**
 * The link-preview picture: not shown on the page, so it is a file the build writes beside the
 * pages (/og-image.png), of the one size link previews use.
 */
type SharedImage = { readonly file: string; readonly width: number; readonly height: number }

/** A picture's path as written in a content file, before the build has processed it. */
export class ImageReference {
  constructor(
    /** Relative to content/imagenes/, e.g. 'clientes/ruta-57.svg'. */
    readonly path: string,
    readonly label: string,
    /** The width the page gives it: the image is made this wide (twice, for sharp screens). */
    readonly displayWidth: number,
    /** For a picture served as a file of its own: the exact size it is made at, as a PNG. */
    readonly exactSize?: { readonly width: number; readonly height: number },
  ) {}
}

/** The size of a link preview on every network that shows one (Open Graph). */
const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const

export const IMAGE_FOLDER = 'content/imagenes'

function image(label: string, displayWidth: number, folder: string, hint: string) {
  return described(
    z
      .string({
        error: typeError(
          label,
          `el nombre de un archivo .svg o .png de ${IMAGE_FOLDER}/, por ejemplo clientes/logo.svg`,
        ),
      })
      .transform((path) => path.replace(/^\/?(content\/)?(imagenes\/)?/, ''))
      .refine(
        (path) => /^[\w-]+(\/[\w-]+)*\.(svg|png)$/i.test(path),
        `«${label}» debe ser un archivo .svg o .png de ${IMAGE_FOLDER}/, escrito sin espacios ni acentos, por ejemplo clientes/grupo-ejemplo.svg`,
      )
      // Processed by the build into what the page needs (see ContentImage).
      .transform(
        (path) => new ImageReference(path, label, displayWidth) as unknown as ContentImage,
      ),
    { label, hint },
  ).meta({ image: true, imageFolder: folder })
}

const shareImage = described(
  z
    .string({ error: typeError('Imagen para compartir', 'el nombre de un archivo .png o .svg') })
    .transform((path) => path.replace(/^\/?(content\/)?(imagenes\/)?/, ''))
    .refine(
      (path) => /^[\w-]+(\/[\w-]+)*\.(svg|png)$/i.test(path),
      `«Imagen para compartir» debe ser un archivo .png o .svg de ${IMAGE_FOLDER}/, sin espacios ni acentos, por ejemplo compartir/og-image.png`,
    )
    .transform(
      (path) =>
        new ImageReference(
          path,
          'Imagen para compartir',
          SHARE_IMAGE_SIZE.width,
          SHARE_IMAGE_SIZE,
        ) as unknown as SharedImage,
    ),
  {
    label: 'Imagen para compartir',
    hint: 'La que muestran WhatsApp, LinkedIn o Facebook al compartir el enlace: 1200 × 630, en content/imagenes/compartir/.',
  },
).meta({ image: true, imageFolder: 'compartir' })

/** A YouTube video id: 11 letters, digits, '-' or '_'. */
const youtubeId = described(
  z
    .string({ error: typeError('Identificador del video', 'un texto') })
    .regex(
      /^[\w-]{11}$/,
      '«Identificador del video» debe ser el identificador de YouTube: las 11 letras y números que siguen a «watch?v=» en la dirección del video, por ejemplo M7lc1UVf-VE',
    ),
  {
    label: 'Identificador del video',
    hint: 'Las 11 letras y números tras «watch?v=» en la dirección del video en YouTube.',
  },
)

const move = described(
  z.enum(['down', 'up', 'same'], {
    error: '«Movimiento» debe ser down (bajó), up (subió) o same (igual)',
  }),
  { label: 'Movimiento' },
)
const three = <Item extends z.ZodType>(item: Item) => z.tuple([item, item, item])

const boardRow = (label: string) =>
  group(label, {
    badge: text('Siglas', 3),
    name: text('Nombre de la estación', 22),
    prices: described(three(text('Precio', 7)), { label: 'Precios (regular, premium, diésel)' }),
    moves: described(three(move), { label: 'Movimientos (regular, premium, diésel)' }),
  })

// --- content/sitio.yml -------------------------------------------------------------------------

const siteSchema = z.strictObject({
  company: group('Empresa', {
    name: text('Nombre comercial', 30),
    legalName: text('Razón social', 80),
  }),
  contact: group('Contacto', {
    email: described(
      z
        .string({ error: typeError('Correo de contacto', 'un texto') })
        .regex(
          /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
          '«Correo de contacto» debe ser una dirección de correo, por ejemplo contacto@gaspre.mx',
        ),
      { label: 'Correo de contacto' },
    ),
    whatsappNumber: described(
      z
        .string({
          error: typeError(
            'Número de WhatsApp',
            "un texto entre comillas, por ejemplo '5215512345678'",
          ),
        })
        .regex(
          /^[1-9]\d{7,14}$/,
          "«Número de WhatsApp» va en formato internacional: solo dígitos, con el código de país y sin «+» ni espacios, entre comillas, por ejemplo '5215512345678'",
        ),
      {
        label: 'Número de WhatsApp',
        hint: 'Código de país y número, solo dígitos, sin «+» ni espacios.',
      },
    ),
    whatsappGreeting: text('Mensaje inicial de WhatsApp', 200),
  }),
  social: list(
    'Redes sociales',
    group('Perfil', {
      network: described(
        z.enum(['linkedin', 'facebook'], {
          error: '«Red» debe ser linkedin o facebook, las redes de las que el sitio tiene icono',
        }),
        { label: 'Red' },
      ),
      label: text('Nombre del icono para lectores de pantalla', 60),
      href: href('Dirección del perfil'),
    }),
    { min: 0, max: 2 },
  ),
  header: group('Barra superior', {
    links: list('Menú', link('Enlace del menú', 24), { min: 1, max: 4 }),
    cta: link('Botón de la barra', 20),
    logoLabel: text('Logotipo, para lectores de pantalla', 60),
    navLabel: text('Nombre del menú, para lectores de pantalla', 30),
    mobileNavLabel: text('Nombre del menú móvil, para lectores de pantalla', 30),
    openMenu: text('Botón para abrir el menú móvil', 30),
    closeMenu: text('Botón para cerrar el menú móvil', 30),
    skipLink: text('Enlace para saltar al contenido', 40),
  }),
  footer: group('Pie de página', {
    blurb: text('Frase bajo el logotipo', 160),
    socialLabel: text('Título de redes sociales', 30),
    contactLabel: text('Título de contacto', 30),
    whatsappLabel: text('Enlace de WhatsApp', 40),
    legal: link('Enlace legal', 60),
    copyright: text('Derechos de autor', 100),
  }),
  consent: group('Aviso de cookies', {
    title: text('Título del aviso', 40),
    text: text('Texto del aviso', 400),
    more: link('Enlace al aviso de privacidad', 40),
    accept: text('Botón Aceptar', 20),
    reject: text('Botón Rechazar', 20),
    reopen: text('Enlace para cambiar la elección', 40),
  }),
  notFound: group('Página no encontrada', {
    title: text('Título de la pestaña', 70),
    text: text('Texto', 120),
    homeLink: text('Enlace al inicio', 40),
  }),
})

// --- content/inicio.yml ------------------------------------------------------------------------

const homeSchema = z.strictObject({
  head: group('Buscadores y redes', {
    title: text('Título en Google y en la pestaña', 80),
    description: text('Descripción en Google', 160),
    shareImage,
    offer: group('Oferta (datos estructurados)', {
      name: text('Nombre de la oferta', 40),
      description: text('Descripción de la oferta', 160),
    }),
  }),
  hero: group('Portada', {
    eyebrow: text('Texto sobre el título', 60),
    title: text('Título principal', 80, FIXED_BY_CONTRACT),
    lead: text('Texto bajo el título', 200),
    proof: list(
      'Cifras',
      group('Cifra', {
        figure: text('Cifra', 8, 'Por ejemplo +2,000. Entre comillas si empieza por «+».'),
        label: text('Qué cuenta la cifra', 80),
      }),
      { count: 3 },
    ),
  }),
  heroActions: group('Botones de la portada', {
    primaryCta: link('Botón principal', 30),
    videoCta: text('Botón del video', 20, FIXED_BY_CONTRACT),
  }),
  heroBoard: group('Tablero de ejemplo', {
    label: text('Descripción para lectores de pantalla', 240),
    title: text('Título del tablero', 32),
    meta: text('Radio y hora', 32),
    live: text('Etiqueta «en vivo»', 12),
    columns: described(
      z.tuple([
        text('Columna de estaciones', 12),
        text('Columna 1', 9),
        text('Columna 2', 9),
        text('Columna 3', 9),
      ]),
      { label: 'Columnas' },
    ),
    competitors: list('Estaciones de la competencia', boardRow('Estación'), { count: 3 }),
    own: boardRow('Tu estación'),
    suggestion: group('Precio sugerido', {
      label: text('Texto', 48),
      value: text('Precio', 8),
    }),
    alert: group('Alerta de WhatsApp', {
      sender: text('Remitente', 40),
      text: text('Mensaje', 100),
      time: text('Hora', 5),
    }),
  }),
  videoDialog: group('Ventana del video', {
    title: text('Título de la ventana', 60),
    close: text('Botón Cerrar', 20, FIXED_BY_CONTRACT),
  }),
  carousel: group('Carrusel', {
    heading: text('Título de la sección', 70),
    label: text('Nombre del carrusel, para lectores de pantalla', 60),
    controls: group('Botones del carrusel, para lectores de pantalla', {
      previous: text('Anterior', 40),
      next: text('Siguiente', 40),
      pause: text('Pausar', 50),
      play: text('Reanudar', 50),
      pagination: text('Puntos', 40),
      goTo: template('Ir a una diapositiva', 50, ['n']),
      slideOf: template('Posición de la diapositiva', 30, ['n', 'total']),
    }),
    slides: list(
      'Diapositivas',
      group('Diapositiva', {
        id: described(
          z
            .string({ error: typeError('Identificador', 'un texto') })
            .regex(
              /^[a-z0-9]+(-[a-z0-9]+)*$/,
              '«Identificador» va en minúsculas, sin acentos ni espacios, con guiones: por ejemplo precio-optimo',
            ),
          { label: 'Identificador', hint: 'En minúsculas y con guiones; no se ve en la página.' },
        ),
        title: text('Título', 50),
        text: text('Texto', 180),
        image: image(
          'Imagen',
          640,
          'carrusel',
          'Un archivo .svg o .png de content/imagenes/carrusel/, de 640 × 400 o proporcional.',
        ),
        alt: text(
          'Descripción de la imagen',
          200,
          'No se ve en la página: describe la imagen para quien usa un lector de pantalla.',
        ),
      }),
      { count: 4 },
    ),
  }),
  clients: group('Nuestros clientes', {
    heading: text('Título de la sección', 60),
    lead: text('Texto bajo el título', 200),
    listLabel: text('Nombre de la lista, para lectores de pantalla', 60),
    logos: list(
      'Logotipos',
      group('Cliente', {
        name: text(
          'Nombre del cliente, para lectores de pantalla',
          60,
          'No se ve en la página: es lo que oye, en lugar del logotipo, quien usa un lector de pantalla.',
        ),
        logo: image(
          'Logotipo',
          200,
          'clientes',
          'Un archivo .svg o .png de content/imagenes/clientes/, de 200 × 80 o proporcional.',
        ),
      }),
      { min: 3, max: 24 },
    ),
  }),
  pillars: group('¿Por qué GASPRE?', {
    heading: text('Título de la sección', 60),
    lead: text('Texto bajo el título', 240),
    items: list(
      'Pilares',
      group('Pilar', { title: text('Título', 60), text: text('Texto', 200) }),
      { count: 3 },
    ),
  }),
  productVideo: group('Video', {
    youtubeId,
    frameTitle: text('Título del video, para lectores de pantalla', 80),
    playLabel: text('Botón de reproducir, para lectores de pantalla', 80),
  }),
  videoSection: group('Sección del video', {
    heading: text('Título de la sección', 110),
    lead: text('Texto bajo el título', 200),
  }),
  demoSection: group('Sección de la demo', {
    heading: text('Título de la sección', 50),
    lead: text('Texto bajo el título', 240),
    promises: list('Promesas', text('Promesa', 80), { min: 1, max: 4 }),
    privacyNotice: group('Nota de privacidad bajo el botón', {
      text: text('Texto antes del enlace', 240),
      link: link('Enlace', 40),
      end: optionalText('Texto después del enlace', 80),
    }),
    postedFailed: text('Error al enviar sin JavaScript', 200),
    withoutScripts: text('Aviso sin JavaScript', 200),
  }),
})

// --- content/formulario.yml --------------------------------------------------------------------

const formFields = <Value extends z.ZodType>(make: (label: string) => Value) => ({
  user_name: make('Nombre'),
  user_email: make('Correo'),
  user_phone: make('Teléfono'),
  user_group: make('Grupo o estación'),
  message: make('Comentarios'),
})

const formSchema = z.strictObject({
  demoForm: group('Formulario', {
    requiredNote: text('Nota de campos obligatorios', 80),
    labels: group(
      'Etiquetas',
      formFields((field) => text(`Etiqueta: ${field}`, 40)),
    ),
    hints: group('Ayudas', {
      user_phone: text('Ayuda: Teléfono', 100),
      message: text('Ayuda: Comentarios', 100),
    }),
    placeholders: group(
      'Ejemplos dentro de los campos',
      formFields((field) => optionalText(`Ejemplo: ${field}`, 40)),
    ),
    errors: group('Mensajes de error', {
      required: group('Campo obligatorio vacío', {
        user_name: text('Falta el nombre', 100),
        user_email: text('Falta el correo', 100),
        user_phone: text('Falta el teléfono', 100),
        user_group: text('Falta el grupo', 100),
      }),
      email: text('Correo no válido', 120),
      phone: text('Teléfono no válido', 120),
      tooLong: template('Texto demasiado largo', 100, ['max']),
      summary: text('Resumen de errores', 120),
    }),
    submit: text('Botón Enviar', 24),
    sending: text('Botón mientras envía', 24),
    honeypotLabel: text('Campo trampa (oculto)', 40),
    alert: group('Ventana de resultado', {
      successTitle: text('Título si se envió', 30),
      successText: text('Texto si se envió', 160),
      errorTitle: text('Título si falló', 30),
      errorPrefix: text('Texto antes del error', 100),
      errorHelp: text('Ayuda si falló', 160),
      close: text('Botón para cerrar', 20),
    }),
    fallback: group('Otras vías si falla el envío', {
      lead: text('Texto', 120),
      whatsapp: text('Botón de WhatsApp', 30),
      email: text('Botón de correo', 30),
    }),
  }),
  booking: group('Agenda de la demo, tras el envío', {
    heading: text('Título', 50),
    intro: template('Texto de entrada', 200, ['rep', 'minutes']),
    zone: template('Zona horaria', 100, ['zone']),
    announce: template('Aviso para lectores de pantalla', 160, ['rep', 'count']),
    book: text('Botón Agendar', 30),
    booking: text('Botón mientras agenda', 30),
    chooseFirst: text('Si no eligió hora', 80),
    failed: text('Si no se pudo agendar', 200),
    changeHeading: text('Título al cambiar la hora', 50),
    changing: template('Texto al cambiar la hora', 160, ['date', 'time']),
    keep: text('Botón para dejarla como está', 30),
    noOtherTime: text('Si no hay otra hora libre', 160),
    cancelled: text('Demo cancelada', 120),
    booked: group('Demo agendada', {
      heading: text('Título', 50),
      day: text('Etiqueta del día', 20),
      hour: text('Etiqueta de la hora', 20),
      with: text('Etiqueta del asesor', 20),
      invitation: text('Aviso de la invitación', 200),
      room: text('Enlace a la videollamada', 40),
      change: text('Botón Cambiar la hora', 30),
      cancel: text('Botón Cancelar', 30),
    }),
  }),
  bookingPage: group('Página de la agenda, sin JavaScript', {
    title: text('Título', 50),
    sentTitle: text('Título tras enviar el formulario', 50),
    sentLead: text('Texto tras enviar el formulario', 160),
    lead: template('Texto de entrada', 200, ['minutes', 'rep']),
    zone: template('Zona horaria', 100, ['zone']),
    choose: text('Botón Agendar', 30),
    change: text('Botón Cambiar a esta hora', 30),
    changeHeading: text('Título al cambiar la hora', 50),
    noTimes: text('Si no hay horas libres', 200),
    meetingTitle: text('Título de la demo agendada', 50),
    meeting: template('La demo agendada', 100, ['when', 'rep']),
    room: text('Enlace a la videollamada', 40),
    roomNote: text('Aviso de la invitación', 200),
    cancel: text('Botón Cancelar', 30),
    cancelledTitle: text('Título tras cancelar', 50),
    cancelled: text('Texto tras cancelar', 160),
    unknownTitle: text('Título si el enlace venció', 50),
    unavailableTitle: text('Título si no se puede leer la agenda', 50),
    home: text('Enlace a la página de inicio', 40),
  }),
  bookingAnswers: group('Respuestas del servidor al agendar', {
    unknown: text('El enlace no existe o venció', 240),
    unavailable: text('No se puede leer la agenda', 240),
    taken: text('Alguien tomó esa hora', 200),
    notOffered: text('Esa hora no se ofrece', 200),
    malformed: text('No se entendió la hora', 200),
    crossSite: text('La reserva vino de otro sitio', 240),
  }),
  fallbackMessage: group('Solicitud por WhatsApp o correo', {
    subject: text('Asunto del correo', 80),
    intro: text('Saludo', 160),
    labels: group('Nombres de los datos', {
      ...formFields((field) => text(`Dato: ${field}`, 40)),
      contact_number: text('Dato: número de contacto', 40),
    }),
  }),
})

// --- content/tyc.yml ---------------------------------------------------------------------------

const termsPageSchema = z.strictObject({
  title: text('Título de la página', 60),
  description: text('Descripción en Google', 160),
  lastUpdated: group('Última actualización', {
    date: described(
      z
        .string({ error: typeError('Fecha', "un texto entre comillas, por ejemplo '2025-09-23'") })
        .regex(
          /^\d{4}-\d{2}-\d{2}$/,
          "«Fecha» va como año-mes-día y entre comillas, por ejemplo '2025-09-23'",
        )
        .refine((date) => !Number.isNaN(Date.parse(date)), '«Fecha» no es una fecha que exista'),
      { label: 'Fecha', hint: 'Año-mes-día, por ejemplo 2025-09-23.' },
    ),
    label: text('Fecha como se lee', 40),
  }),
  updatedPrefix: text('Texto antes de la fecha', 40),
  tocTitle: text('Título del índice', 30),
  backHome: text('Botón para volver al inicio', 30),
})

/** The front matter of a legal text in Markdown (content/terminos.md, content/privacidad.md). */
export const proseFrontMatterSchema = z.strictObject({
  title: text('Título', 80),
})

/** A run of text in a paragraph or list item: plain, or a link. */
export type Inline = string | { readonly href: string; readonly text: string }
export type ProseBlock =
  | { readonly kind: 'paragraph'; readonly content: readonly Inline[] }
  | { readonly kind: 'list'; readonly items: readonly (readonly Inline[])[] }
export type ProseSection = {
  /** The section's address on the page (/tyc#id): from `{#id}` after its heading. */
  readonly id: string
  readonly title: string
  readonly blocks: readonly ProseBlock[]
}
/** A legal text: its title, the paragraphs before the first section, and its sections. */
export type ProseDocument = {
  readonly title: string
  readonly intro: readonly ProseBlock[]
  readonly sections: readonly ProseSection[]
}

/** Every structured content file, by its name in content/. */
export const contentFiles = {
  'sitio.yml': siteSchema,
  'inicio.yml': homeSchema,
  'formulario.yml': formSchema,
  'tyc.yml': termsPageSchema,
} as const

/** The legal texts in Markdown, by file name. */
export const proseFiles = ['terminos.md', 'privacidad.md'] as const

/**
 * What a content file holds once checked: the type of its modules.
 * @internal content-files.d.ts reads it
 */
export type ContentOf<File extends keyof typeof contentFiles> = z.output<
  (typeof contentFiles)[File]
>
/** @internal */
export type HomeContent = z.output<typeof homeSchema>
/** @internal */
export type FormContent = z.output<typeof formSchema>
