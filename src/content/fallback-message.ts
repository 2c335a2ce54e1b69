/**
 * The request written out for WhatsApp or e-mail. A module of its own, so that only the chunk
 * loaded when a send fails carries it.
 */
export const fallbackMessage = {
  subject: 'Solicitud de demo de GASPRE',
  intro: 'Hola, quiero solicitar una demo gratis de GASPRE. Estos son mis datos:',
  labels: {
    user_name: 'Nombre',
    user_group: 'Grupo o estación',
    user_phone: 'Teléfono',
    user_email: 'Correo',
    contact_number: 'Número de contacto',
    message: 'Comentarios',
  },
} as const
