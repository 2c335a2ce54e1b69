import { company } from '../config/site'

/** What the home page says of itself to browsers, search engines and link previews. */
export const homeMeta = {
  title: `${company.name} | Sistema de inteligencia en precios para estaciones de servicio`,
  description:
    'Monitorea los precios de tu competencia en tiempo real, recibe alertas por WhatsApp y fija el precio óptimo de cada estación. Solicita tu demo gratis.',
} as const
