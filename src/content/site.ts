import { anchors } from './anchors'
import { company, contact, pages, socialProfiles } from '../config/site'
import type { ExternalLink, Link } from './types'

/** The links to our profiles, with the name a screen reader gives each icon. */
export const socialLinks = [
  { label: 'GASPRE en LinkedIn', href: socialProfiles.linkedin, network: 'linkedin' },
  { label: 'GASPRE en Facebook', href: socialProfiles.facebook, network: 'facebook' },
] as const satisfies readonly ExternalLink[]

/** What a chat opened from the site starts with. */
const whatsappGreeting = 'Hola, me gustaría conocer GASPRE y solicitar una demo gratuita.'

export const whatsappHref = `https://wa.me/${contact.whatsappNumber}?text=${encodeURIComponent(whatsappGreeting)}`
export const mailtoHref = `mailto:${contact.email}`

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
  legal: { label: 'Aviso de privacidad / Términos de uso / 2025', href: pages.terms.path },
  copyright: `© 2025 ${company.name}. Todos los derechos reservados.`,
} as const
