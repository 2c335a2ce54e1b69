import { anchors } from './anchors'
import { company, privacyNoticeHref } from '../config/site'

/**
 * The demo section's static copy. Kept apart from the form's own copy (below), which the form
 * island's script carries: this part is only ever in the HTML.
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
    sentId: 'solicitud-enviada',
    failedId: 'solicitud-no-enviada',
    failedText:
      'No pudimos registrar tu solicitud. Escríbenos por WhatsApp o por correo y te atendemos igual:',
  },
  /** Shown only when the browser runs no scripts: the form still works, and so do these. */
  withoutScripts:
    'Tu navegador no está ejecutando JavaScript. El formulario funciona igual, y también puedes escribirnos directamente:',
} as const

/** Copy of the demo request form, its validation messages and its alerts. */
export const demoForm = {
  requiredNote: 'Los campos marcados con * son obligatorios.',
  labels: {
    user_name: 'Nombre completo*',
    user_email: 'Correo electrónico*',
    user_phone: 'Teléfono*',
    user_group: 'Grupo o estación de servicio*',
    message: 'Comentarios',
  },
  hints: {
    user_phone: 'Con lada o código de país.',
    message: 'Opcional: número de estaciones, zona o lo que quieras ver en la demo.',
  },
  placeholders: {
    user_name: 'Ana López',
    user_email: 'ana@grupo.com',
    user_phone: '+52 55 1234 5678',
    user_group: 'Grupo Ejemplo',
    message: '',
  },
  errors: {
    required: {
      user_name: 'Escribe tu nombre completo.',
      user_email: 'Escribe tu correo electrónico.',
      user_phone: 'Escribe un teléfono de contacto.',
      user_group: 'Escribe el nombre de tu grupo o estación.',
      message: '',
    },
    email: 'Revisa el correo: debe tener la forma nombre@empresa.com.',
    phone:
      'Revisa el teléfono: usa de 7 a 15 dígitos; puedes incluir +, espacios, guiones y paréntesis.',
    tooLong: (max: number) => `Es demasiado largo: usa como máximo ${max} caracteres.`,
    summary: 'Revisa los campos marcados para poder enviar tu solicitud.',
  },
  submit: 'Enviar solicitud',
  sending: 'Enviando…',
  honeypotLabel: 'No llenes este campo',
  alert: {
    successTitle: '¡Éxito!',
    successText: 'El mensaje se envió correctamente.',
    errorTitle: '¡Error!',
    errorPrefix: 'Hubo un problema al enviar el mensaje: ',
    errorHelp: 'Tus datos siguen en el formulario: puedes intentarlo de nuevo.',
    close: 'Aceptar',
  },
  /** One-tap ways to reach sales that carry the request when sending fails. */
  fallback: {
    lead: 'O mándanos la solicitud ahora mismo, ya escrita, por otra vía:',
    whatsapp: 'Enviar por WhatsApp',
    email: 'Enviar por correo',
  },
} as const
