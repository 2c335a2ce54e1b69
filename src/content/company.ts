/**
 * Who is responsible for the site, and where its privacy notice is: a module of its own, with
 * nothing else in it, so the form's island can name them without carrying the rest of site.ts.
 */
export const company = {
  name: 'GASPRE',
  legalName: 'GASPRE Inteligencia en Precios',
} as const

/** The privacy summary on the terms page (the id of its part in sections/terms.tsx). */
export const privacyNoticeHref = '/tyc#aviso-de-privacidad'
