import contact from '../../content/sitio.yml?field=contact'
import header from '../../content/sitio.yml?field=header'
import social from '../../content/sitio.yml?field=social'

// The words and links every page shares, as content/sitio.yml has them.
export { default as company } from '../../content/sitio.yml?field=company'
export { default as consent } from '../../content/sitio.yml?field=consent'
export { default as footer } from '../../content/sitio.yml?field=footer'
export { default as notFound } from '../../content/sitio.yml?field=notFound'
export { contact, header }

/** The links to our profiles, with the name a screen reader gives each icon. */
export const socialLinks = social

export const whatsappHref = `https://wa.me/${contact.whatsappNumber}?text=${encodeURIComponent(contact.whatsappGreeting)}`
export const mailtoHref = `mailto:${contact.email}`

/** The in-page menu, shared by the desktop and the mobile navigation. */
export const navLinks = header.links
