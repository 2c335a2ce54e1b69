// What the booking of a demo says in Spanish: the JSON answers' sentences, which the page's
// picker shows, and the words of the page the server renders for a browser without JavaScript
// (server/booking/page.tsx). The production server compiles this file (tsconfig.server.json),
// so it imports nothing.

export const bookingAnswers = {
  /** GET or POST of an address that does not exist or has expired (404). */
  unknown:
    'Este enlace para agendar la demostración no existe o ya venció. Escríbenos por WhatsApp o por correo y la agendamos contigo.',
  /** The rep's calendar cannot be read now (503). */
  unavailable:
    'Ahora no podemos consultar la agenda. Tu solicitud ya nos llegó: te escribiremos para acordar la demostración.',
  /** A start someone else took meanwhile, or no longer free (409). */
  taken: 'Alguien acaba de reservar ese horario. Elige otro de los que siguen libres.',
  /** A start that is not one of the offered times (422). */
  notOffered: 'Ese horario no está entre los que ofrecemos. Elige uno de la lista.',
  /** A POST that is neither a start nor a cancellation (400). */
  malformed: 'No entendimos qué horario elegiste. Elige uno de la lista y vuelve a enviarlo.',
  /** A POST from another site's page (403). */
  crossSite:
    'Esta reserva no salió de nuestro sitio, así que no la registramos. Ábrela desde el enlace que te enviamos.',
} as const

export const bookingPage = {
  title: 'Agenda tu demostración',
  sentTitle: 'Recibimos tu solicitud',
  sentLead: 'Si quieres, agenda ya la demostración en uno de estos horarios.',
  lead: (rep: string, minutes: number) =>
    `Elige un horario para una videollamada de ${minutes} minutos con ${rep}.`,
  zone: (zone: string) => `Horarios en ${zone}.`,
  choose: 'Agendar en este horario',
  change: 'Cambiar a este horario',
  changeHeading: '¿Necesitas otro horario?',
  noTimes:
    'Por ahora no hay horarios libres en los próximos días. Te escribiremos para acordar la demostración.',
  meetingTitle: 'Tu demostración está agendada',
  meeting: (when: string, rep: string) => `${when}, con ${rep}.`,
  room: 'Entrar a la videollamada',
  roomNote: 'Te enviamos la invitación por correo, para que la agregues a tu calendario.',
  cancel: 'Cancelar la demostración',
  cancelledTitle: 'Cancelaste la demostración',
  cancelled: 'Si quieres, elige otro horario.',
  unknownTitle: 'Enlace vencido',
  unavailableTitle: 'Agenda no disponible',
  home: 'Volver a la página de inicio',
} as const
