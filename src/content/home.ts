import { anchors } from './anchors'
import { videoOrigin } from '../config/site'

export const hero = {
  eyebrow: 'Para grupos gasolineros y estaciones de servicio',
  title: 'Sistema de inteligencia en precios para estaciones de servicio',
  lead: 'Conoce al instante los precios de tu competencia, recibe alertas por WhatsApp y fija el precio que más utilidad deja en cada estación.',
  proof: [
    { figure: '+2,000', label: 'estaciones de servicio atendidas' },
    { figure: '+150', label: 'grupos gasolineros confían en nosotros' },
    {
      figure: 'Único',
      label: 'sistema con información en tiempo real en México, España y Latinoamérica',
    },
  ],
} as const

/** The hero's calls to action: the only hero copy its island (and so its JavaScript) carries. */
export const heroActions = {
  primaryCta: { label: 'Solicitar DEMO gratis', href: `#${anchors.demo}` },
  videoCta: 'Ver video',
} as const

/** A station's prices on the hero's board, with which way each one last moved. */
export type BoardRow = {
  readonly badge: string
  readonly name: string
  readonly prices: readonly [regular: string, premium: string, diesel: string]
  readonly moves: readonly [BoardMove, BoardMove, BoardMove]
}
export type BoardMove = 'down' | 'up' | 'same'

/** The product at work, drawn beside the headline on wide screens: a board and an alert. */
export const heroBoard = {
  label:
    'Ejemplo de GASPRE en acción: los precios de tres estaciones vecinas frente a los tuyos y una alerta por WhatsApp de una bajada de precio.',
  title: 'Precios de la competencia',
  meta: 'Radio de 3 km · hace 2 min',
  live: 'En vivo',
  columns: ['Estación', 'Regular', 'Premium', 'Diésel'],
  competitors: [
    {
      badge: 'EN',
      name: 'Estación Norte',
      prices: ['$23.19', '$25.49', '$24.89'],
      moves: ['down', 'same', 'same'],
    },
    {
      badge: 'SR',
      name: 'Servicio Reforma',
      prices: ['$23.49', '$25.79', '$24.99'],
      moves: ['same', 'up', 'same'],
    },
    {
      badge: 'GV',
      name: 'Gas del Valle',
      prices: ['$23.59', '$25.69', '$25.09'],
      moves: ['same', 'same', 'down'],
    },
  ],
  own: {
    badge: 'TÚ',
    name: 'Tu estación',
    prices: ['$23.49', '$25.59', '$24.95'],
    moves: ['same', 'same', 'same'],
  },
  suggestion: { label: 'Precio óptimo sugerido para tu regular', value: '$23.29' },
  alert: {
    sender: 'GASPRE · Alerta de precio',
    text: 'Estación Norte bajó la regular a $23.19 (−$0.30). Tu precio: $23.49.',
    time: '9:41',
  },
} as const satisfies {
  competitors: readonly BoardRow[]
  own: BoardRow
} & Record<string, unknown>

export const videoDialog = {
  title: 'GASPRE en dos minutos',
  close: 'Cerrar',
} as const

type Slide = {
  readonly id: string
  readonly title: string
  readonly text: string
  readonly image: 'competencia' | 'whatsapp' | 'precio-optimo' | 'tableros'
  readonly alt: string
}

export const carousel = {
  heading: 'Así trabaja GASPRE por tu estación',
  label: 'Funciones de GASPRE',
  controls: {
    previous: 'Diapositiva anterior',
    next: 'Diapositiva siguiente',
    pause: 'Pausar la rotación automática',
    play: 'Reanudar la rotación automática',
    pagination: 'Elegir diapositiva',
    goTo: (n: number) => `Ir a la diapositiva ${n}`,
    slideOf: (n: number, total: number) => `${n} de ${total}`,
  },
  slides: [
    {
      id: 'competencia',
      title: 'Monitorea a tu competencia',
      text: 'Ve en un solo tablero los precios de regular, premium y diésel de las estaciones que compiten contigo, actualizados en tiempo real.',
      image: 'competencia',
      alt: 'Tablero con los precios de regular, premium y diésel de cuatro estaciones cercanas y sus cambios recientes.',
    },
    {
      id: 'whatsapp',
      title: 'Recibe notificaciones por WhatsApp',
      text: 'Cuando un competidor mueve su precio, te avisamos por WhatsApp en segundos, sin abrir otra aplicación.',
      image: 'whatsapp',
      alt: 'Teléfono con un mensaje de WhatsApp de GASPRE que avisa que una estación cercana bajó su precio de regular.',
    },
    {
      id: 'precio-optimo',
      title: 'Optimiza tu precio',
      text: 'Calculamos el precio que maximiza tu utilidad a partir de la elasticidad de precio de cada estación.',
      image: 'precio-optimo',
      alt: 'Curva de utilidad según el precio con el punto máximo marcado como precio óptimo.',
    },
    {
      id: 'tableros',
      title: 'Tableros de seguimiento',
      text: 'Sigue litros vendidos, margen y alertas de todas tus estaciones en tableros claros que se actualizan solos.',
      image: 'tableros',
      alt: 'Tablero con indicadores de litros vendidos, margen y alertas, y gráficas de barras y de línea.',
    },
  ],
} as const satisfies { slides: readonly Slide[] } & Record<string, unknown>

type ClientLogo = { readonly name: string; readonly file: string }

export const clients = {
  heading: 'Nuestros clientes',
  lead: 'Grupos gasolineros de México, España y Latinoamérica ya deciden sus precios con GASPRE.',
  listLabel: 'Logotipos de clientes',
  logos: [
    { name: 'Grupo Altamar', file: 'grupo-altamar' },
    { name: 'Servigas del Bajío', file: 'servigas-bajio' },
    { name: 'Petroval', file: 'petroval' },
    { name: 'Combustibles Sierra', file: 'combustibles-sierra' },
    { name: 'Ruta 57', file: 'ruta-57' },
    { name: 'Gasolineras Aurora', file: 'gasolineras-aurora' },
    { name: 'Energía Pacífico', file: 'energia-pacifico' },
    { name: 'Estaciones Cumbre', file: 'estaciones-cumbre' },
    { name: 'Grupo Meridiano', file: 'grupo-meridiano' },
    { name: 'Llano Gas', file: 'llano-gas' },
    { name: 'Carburantes Ibéricos', file: 'carburantes-ibericos' },
    { name: 'Nova Energéticos', file: 'nova-energeticos' },
  ],
} as const satisfies { logos: readonly ClientLogo[] } & Record<string, unknown>

export const pillars = {
  heading: '¿Por qué GASPRE?',
  lead: 'Somos el único sistema en México, España y Latinoamérica con información de precios en tiempo real. Tres pilares lo hacen posible.',
  items: [
    {
      title: 'Precios de la competencia en tiempo real',
      text: 'Monitoreamos a tus competidores minuto a minuto para que reacciones antes que nadie y no pierdas volumen ni margen.',
    },
    {
      title: 'El precio óptimo para cada estación',
      text: 'Con la elasticidad de precio de tu estación calculamos el precio que maximiza tu utilidad, no solo tu volumen.',
    },
    {
      title: 'Desarrollo de TI a la medida',
      text: 'Adaptamos GASPRE a tu operación: integraciones con tus sistemas y automatización de los reportes que hoy armas a mano.',
    },
  ],
} as const

/** The product video, shown in the hero's popup and in the video section. */
export const productVideo = {
  /** YouTube id; marketing replaces it when the final cut is published. */
  youtubeId: 'M7lc1UVf-VE',
  frameTitle: 'Video de presentación de GASPRE',
  playLabel: 'Reproducir el video de GASPRE',
} as const

export const youtubeEmbedUrl = (autoplay: boolean) =>
  `${videoOrigin}/embed/${productVideo.youtubeId}?rel=0${autoplay ? '&autoplay=1' : ''}`

export const videoSection = {
  heading: 'Hemos ayudado a más de 150 grupos gasolineros a tomar mejores decisiones de precio',
  lead: 'Mira cómo GASPRE convierte los movimientos de tu mercado en decisiones rentables.',
} as const
