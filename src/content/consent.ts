import { privacyNoticeHref } from '../config/site'

/**
 * The consent banner and its footer link. Both exist only in builds with a tag manager
 * configured: without one the site loads no third party and has nothing to ask.
 */
export const consent = {
  title: 'Tu privacidad',
  text: 'Con tu permiso usaremos Google Tag Manager y sus cookies para medir visitas y campañas. Si rechazas, no cargamos nada de terceros. Puedes cambiarlo cuando quieras en «Preferencias de privacidad», al pie de la página.',
  more: { label: 'Aviso de privacidad', href: privacyNoticeHref },
  accept: 'Aceptar',
  reject: 'Rechazar',
  reopen: 'Preferencias de privacidad',
} as const
