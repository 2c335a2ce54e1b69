import { anchors } from './anchors'
import { company, privacyNoticeHref } from '../config/site'
import { POSTED_RESULT_IDS } from '../contract/demo-request'

/**
 * The demo section's static copy. Kept apart from the form's own copy (content/demo-form.ts),
 * which the form island's script carries: this part is only ever in the HTML.
 */
export const demoSection = {
  id: anchors.demo,
  headingId: anchors.demoHeading,
  heading: 'Solicita tu demo gratis',
  lead: 'Déjanos tus datos y un especialista te mostrará GASPRE con los precios reales de tu zona. Sin costo y sin compromiso.',
  promises: [
    'Te contactamos en menos de un día hábil.',
    'Demo en línea de 30 minutos con tus estaciones.',
    'Tus datos solo se usan para atender tu solicitud.',
  ],
  /** Shown right under the submit button (static HTML, outside the form island): who is responsible for the data and what it is used for. */
  privacyNotice: {
    text: `${company.legalName}, responsable de tus datos, los usará para atender tu solicitud de demo y saber qué campaña te trajo, como explica el `,
    link: { label: 'aviso de privacidad', href: privacyNoticeHref },
    end: '.',
  },
  /** What the page says after the form was posted by the browser itself (scripts off). */
  posted: {
    sentId: POSTED_RESULT_IDS.sent,
    failedId: POSTED_RESULT_IDS.failed,
    failedText:
      'No pudimos registrar tu solicitud. Escríbenos por WhatsApp o por correo y te atendemos igual:',
  },
  /** Shown only when the browser runs no scripts: the form still works, and so do these. */
  withoutScripts:
    'Tu navegador no está ejecutando JavaScript. El formulario funciona igual, y también puedes escribirnos directamente:',
} as const
