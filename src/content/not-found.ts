import { company } from '../config/site'

/** The page a static host gives an unknown address; it sends the visitor on to the home page. */
export const notFound = {
  title: `Página no encontrada | ${company.name}`,
  text: 'Esta página no existe.',
  homeLink: `Ir al inicio de ${company.name}`,
} as const
