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
