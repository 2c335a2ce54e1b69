import { anchors } from './anchors'
import { company } from './company'
import type { ExternalLink, Link } from './types'

/** Facts about the company and every address the site links to, written once. */
export const site = {
  ...company,
  locale: 'es_MX',
  lang: 'es',
  themeColor: '#0b1f3a',
  contactEmail: 'contacto@gaspre.mx',
  whatsappNumber: '5215512345678',
  whatsappGreeting: 'Hola, me gustaría conocer GASPRE y solicitar una demo gratuita.',
  social: [
    {
      label: 'GASPRE en LinkedIn',
      href: 'https://www.linkedin.com/company/gaspre',
      network: 'linkedin',
    },
    {
      label: 'GASPRE en Facebook',
      href: 'https://www.facebook.com/gaspre.mx',
      network: 'facebook',
    },
  ] as const satisfies readonly ExternalLink[],
} as const

export const whatsappHref = `https://wa.me/${site.whatsappNumber}?text=${encodeURIComponent(site.whatsappGreeting)}`
export const mailtoHref = `mailto:${site.contactEmail}`

/** The in-page menu, shared by the desktop and the mobile navigation. */
export const navLinks = [
  { label: '¿Por qué GASPRE?', href: `#${anchors.why}` },
  { label: 'Nuestros clientes', href: `#${anchors.clients}` },
  { label: 'Contacto', href: `#${anchors.demo}` },
] as const satisfies readonly Link[]

export const header = {
  logoLabel: 'GASPRE, ir al inicio',
  navLabel: 'Principal',
  mobileNavLabel: 'Menú',
  cta: { label: 'Solicitar DEMO', href: `#${anchors.demo}` },
  openMenu: 'Abrir menú',
  closeMenu: 'Cerrar menú',
  skipLink: 'Saltar al contenido',
} as const

export const footer = {
  blurb: 'Inteligencia en precios para estaciones de servicio en México, España y Latinoamérica.',
  socialLabel: 'Redes sociales',
  contactLabel: 'Contacto',
  whatsappLabel: 'Escríbenos por WhatsApp',
  legal: { label: 'Aviso de privacidad / Términos de uso / 2025', href: '/tyc' },
  copyright: `© 2025 ${site.name}. Todos los derechos reservados.`,
} as const
