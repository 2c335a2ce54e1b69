import { company, contact } from '../config/site'
import type { TermsContent } from './types'

/** Copy of the /tyc page: terms of use of the site and the WhatsApp bot, plus the privacy notice summary. */
export const terms = {
  title: 'Términos y Condiciones',
  metaDescription: `Términos y condiciones y aviso de privacidad de ${company.name}: uso del sitio web, del bot de notificaciones por WhatsApp y tratamiento de datos personales.`,
  lastUpdated: { iso: '2025-09-23', label: '23 de septiembre de 2025' },
  intro: [
    `Estos Términos y Condiciones regulan el uso del sitio web de ${company.name} y del bot de notificaciones que ${company.name} opera a través de WhatsApp. Al navegar en el sitio, solicitar una demostración o suscribirse al bot, el usuario acepta lo que se establece en este documento.`,
    'Al final de esta página se encuentra el resumen de nuestro aviso de privacidad, que explica qué datos personales tratamos, para qué los usamos y cómo puede el titular ejercer sus derechos. Recomendamos leer ambos documentos con atención.',
  ],
  tocTitle: 'Contenido',
  termsSections: [
    {
      id: 'responsable',
      title: 'Responsable',
      blocks: [
        {
          kind: 'paragraph',
          text: `El sitio web y el bot de notificaciones son operados por ${company.legalName} (en adelante, «${company.name}» o «nosotros»), con domicilio en México. Para cualquier asunto relacionado con estos términos, el usuario puede escribirnos a ${contact.email}.`,
        },
        {
          kind: 'paragraph',
          text: 'Llamamos «usuario» a cualquier persona que visite el sitio, y «suscriptor» a quien haya aceptado recibir notificaciones del bot, por lo general propietarios o administradores de estaciones de servicio.',
        },
      ],
    },
    {
      id: 'objeto',
      title: 'Objeto',
      blocks: [
        {
          kind: 'paragraph',
          text: `Estos términos regulan el acceso al sitio web de ${company.name} y el uso del bot de mensajería que entregamos por WhatsApp como parte de nuestro sistema de inteligencia en precios para gasolineras.`,
        },
        {
          kind: 'list',
          lead: 'A través del bot, el suscriptor puede recibir:',
          items: [
            'Avisos de cambios en los precios de gasolina regular, gasolina premium y diésel en las estaciones que haya elegido monitorear.',
            'Reportes periódicos con el resumen de precios y movimientos del mercado en su zona.',
            'Alertas operativas, por ejemplo cuando un precio rebasa el umbral que configuró o cuando hay algún aviso sobre el funcionamiento del servicio.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'El alcance del servicio, sus precios y sus condiciones comerciales se pactan por separado con cada cliente. En caso de contradicción, lo acordado en el contrato comercial prevalece sobre estos términos.',
        },
      ],
    },
    {
      id: 'condiciones-de-uso',
      title: 'Condiciones de uso',
      blocks: [
        {
          kind: 'paragraph',
          text: 'El usuario se compromete a usar el sitio y el bot de forma lícita, conforme a estos términos y a las políticas de uso de WhatsApp. La información que proporcione, como su nombre, su número de teléfono o los datos de sus estaciones, debe ser verdadera y mantenerse actualizada.',
        },
        {
          kind: 'list',
          lead: 'Queda prohibido, en particular:',
          items: [
            'Suscribir números telefónicos de terceros sin su autorización.',
            'Reenviar, revender o publicar de forma masiva el contenido de las notificaciones y los reportes sin nuestro consentimiento por escrito.',
            'Intentar acceder sin autorización a nuestros sistemas, interferir con su funcionamiento o extraer información de forma automatizada.',
            'Enviar al bot contenido ilícito u ofensivo, o archivos con código malicioso.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Podemos suspender el acceso de quien incumpla estas condiciones, sin perjuicio de las acciones legales que correspondan.',
        },
      ],
    },
    {
      id: 'suscripcion',
      title: 'Suscripción, baja y preferencias',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Solo enviamos notificaciones a quien haya otorgado su consentimiento previo y expreso para recibirlas. Ese consentimiento se da al registrar el número con nuestro equipo o al confirmar la suscripción directamente en el bot, y puede retirarse en cualquier momento.',
        },
        {
          kind: 'list',
          lead: 'El suscriptor controla el servicio enviando al bot cualquiera de estos comandos:',
          items: [
            'PAUSA: suspende temporalmente el envío de notificaciones, sin cancelar la suscripción ni borrar las preferencias.',
            'REANUDAR: reactiva las notificaciones después de una pausa, con la misma configuración que tenían.',
            'BAJA: cancela la suscripción; a partir de ese momento dejamos de enviarle mensajes.',
            'STOP: tiene el mismo efecto que BAJA y se ofrece como alternativa para quien esté acostumbrado a ese comando.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'El suscriptor también puede configurar sus preferencias: las estaciones que desea monitorear, los productos que le interesan, los umbrales de precio que activan una alerta y un horario de silencio durante el cual no le enviaremos mensajes. Puede modificar estas preferencias o cancelar la suscripción en cualquier momento, sin costo y sin necesidad de justificar su decisión.',
        },
        {
          kind: 'paragraph',
          text: 'Tras una baja enviaremos, como máximo, un mensaje que confirme la cancelación. Si más adelante desea volver a recibir notificaciones, deberá otorgar de nuevo su consentimiento.',
        },
      ],
    },
    {
      id: 'datos-personales',
      title: 'Datos personales',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Para prestar el servicio del bot tratamos únicamente los datos necesarios, conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares.',
        },
        {
          kind: 'list',
          lead: 'Respecto de cada suscriptor tratamos:',
          items: [
            'Número de teléfono de WhatsApp.',
            'Identificadores de las estaciones de servicio y los alias con que el suscriptor las nombra.',
            'Productos de interés: gasolina regular, gasolina premium o diésel.',
            'Umbrales de precio configurados.',
            'Preferencias de alertas, incluido el horario de silencio.',
            'Historial de notificaciones enviadas y de comandos recibidos.',
            'Registros técnicos del servicio, como fecha, hora y estado de entrega de cada mensaje.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Las finalidades del tratamiento, las transferencias y los derechos del titular se describen en el aviso de privacidad que aparece más abajo, en esta misma página.',
        },
      ],
    },
    {
      id: 'entrega',
      title: 'Entrega de mensajes',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Los mensajes se entregan a través de WhatsApp, plataforma de Meta Platforms, Inc., y de las redes de los operadores de telecomunicaciones. Su funcionamiento escapa a nuestro control, por lo que no podemos garantizar que cada notificación llegue de forma oportuna, completa o sin interrupciones.',
        },
        {
          kind: 'paragraph',
          text: 'Las fallas de conectividad, los mantenimientos, las restricciones que imponga Meta o los cambios en sus políticas pueden retrasar o impedir la entrega. Cuando la causa dependa de nosotros, procuraremos restablecer el servicio a la brevedad.',
        },
        {
          kind: 'paragraph',
          text: 'La información que enviamos tiene carácter de referencia: se elabora a partir de fuentes que pueden contener errores o actualizarse con retraso. Las decisiones comerciales, incluida la fijación de precios en cada estación, corresponden exclusivamente al suscriptor.',
        },
      ],
    },
    {
      id: 'responsabilidad',
      title: 'Limitación de responsabilidad',
      blocks: [
        {
          kind: 'paragraph',
          text: 'En la medida en que lo permita la ley aplicable, no seremos responsables de daños indirectos, lucro cesante ni pérdida de ventas o de márgenes derivados del uso del sitio o del bot, de la falta de entrega o el retraso de un mensaje, o de las decisiones tomadas con base en la información recibida.',
        },
        {
          kind: 'paragraph',
          text: 'En cualquier caso, nuestra responsabilidad total frente al suscriptor, por cualquier concepto, se limita al monto que este nos haya pagado por el servicio durante los 12 meses anteriores al hecho que origine la reclamación.',
        },
        {
          kind: 'paragraph',
          text: 'Esta limitación no se aplica a los daños causados por dolo o culpa grave de nuestra parte, ni a los derechos que la legislación reconozca al usuario y que no admitan renuncia.',
        },
      ],
    },
    {
      id: 'propiedad-intelectual',
      title: 'Propiedad intelectual',
      blocks: [
        {
          kind: 'paragraph',
          text: `El software, las bases de datos, los reportes, los textos, los diseños, el nombre ${company.name}, sus logotipos y demás signos distintivos son propiedad de ${company.legalName} o de sus licenciantes, y están protegidos por la legislación mexicana y los tratados internacionales en materia de propiedad intelectual.`,
        },
        {
          kind: 'paragraph',
          text: 'Otorgamos al suscriptor una licencia limitada, personal, no exclusiva e intransferible para consultar las notificaciones y los reportes y utilizarlos en la operación de sus propias estaciones. Cualquier otro uso, incluida su reproducción, distribución o comercialización, requiere nuestra autorización previa y por escrito.',
        },
      ],
    },
    {
      id: 'cambios',
      title: 'Cambios a estos términos',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Podemos modificar estos términos para reflejar cambios en el servicio, en la legislación o en las políticas de WhatsApp. La versión vigente se publica siempre en esta página, con la fecha de su última actualización al inicio del documento.',
        },
        {
          kind: 'paragraph',
          text: 'Cuando los cambios sean relevantes, los comunicaremos también a los suscriptores por medio del bot. El uso continuado del servicio después de su publicación implica la aceptación de la nueva versión; quien no esté de acuerdo puede darse de baja en cualquier momento.',
        },
      ],
    },
    {
      id: 'terminacion',
      title: 'Terminación',
      blocks: [
        {
          kind: 'paragraph',
          text: `El suscriptor puede dar por terminado el servicio del bot en cualquier momento, enviando BAJA o STOP o escribiendo a ${contact.email}. La terminación de un contrato comercial se rige por lo pactado en él.`,
        },
        {
          kind: 'paragraph',
          text: 'Por nuestra parte, podemos terminar o suspender el servicio si el suscriptor incumple estos términos, si así lo exige una autoridad o WhatsApp, o si dejamos de ofrecer el bot. Salvo en casos de incumplimiento grave, lo avisaremos con una anticipación razonable.',
        },
        {
          kind: 'paragraph',
          text: 'Al terminar el servicio dejaremos de enviar notificaciones y trataremos los datos del suscriptor conforme al aviso de privacidad. Las disposiciones sobre limitación de responsabilidad, propiedad intelectual y jurisdicción seguirán vigentes después de la terminación.',
        },
      ],
    },
    {
      id: 'jurisdiccion',
      title: 'Jurisdicción',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Estos términos se rigen por las leyes federales de los Estados Unidos Mexicanos. Para su interpretación y cumplimiento, las partes se someten a la jurisdicción de los tribunales competentes de la Ciudad de México y renuncian expresamente a cualquier otro fuero que pudiera corresponderles por razón de su domicilio presente o futuro o por cualquier otra causa.',
        },
      ],
    },
  ],
  privacyTitle: 'Aviso de privacidad (resumen)',
  privacyIntro: `Este resumen del aviso de privacidad, emitido conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares, explica qué datos personales recabamos a través del sitio web y del bot de WhatsApp, para qué los utilizamos y cómo puede el titular ejercer sus derechos. Para cualquier duda, puede escribirnos a ${contact.email}.`,
  privacySections: [
    {
      id: 'privacidad-responsable',
      title: 'Responsable del tratamiento',
      blocks: [
        {
          kind: 'paragraph',
          text: `${company.legalName}, con domicilio en México, es responsable del tratamiento de los datos personales descritos en este aviso. El medio de contacto para cualquier asunto de privacidad es el correo ${contact.email}.`,
        },
      ],
    },
    {
      id: 'privacidad-datos',
      title: 'Datos que recabamos',
      blocks: [
        {
          kind: 'list',
          lead: 'Mediante el formulario de solicitud de demostración del sitio web recabamos:',
          items: [
            'Nombre completo.',
            'Correo electrónico.',
            'Teléfono.',
            'Grupo gasolinero o estación de servicio.',
            'Comentarios que el visitante decida incluir.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Mediante el bot de WhatsApp tratamos los datos del suscriptor descritos en la sección «Datos personales» de los términos: número de teléfono, identificadores y alias de las estaciones, productos, umbrales de precio, preferencias de alertas, historial de notificaciones y registros técnicos. No solicitamos datos personales sensibles.',
        },
        {
          kind: 'list',
          lead: 'El sitio no usa cookies propias. En el navegador del visitante, y solo ahí, guarda lo siguiente:',
          items: [
            'Un borrador de lo que escribe en el formulario, en el almacenamiento local, para que no pierda nada si recarga la página o se interrumpe la conexión. No sale de su dispositivo hasta que envía la solicitud; se borra en cuanto el envío se completa con éxito y, si no lo envía, caduca a las 24 horas de su última modificación.',
            'Los datos de campaña de la visita, en el almacenamiento de sesión, que se borra al cerrar la pestaña: los parámetros del enlace por el que llegó (utm_source, utm_medium, utm_campaign, utm_term y utm_content, y los identificadores de clic gclid y fbclid), el sitio de procedencia, la primera página visitada y la hora de llegada. Se envían junto con la solicitud de demostración solo para que el equipo comercial sepa qué campaña la originó.',
            'La hora del último envío del formulario, sin ningún dato personal, para evitar envíos repetidos por error.',
            'Cuando el sitio usa herramientas de medición de terceros, la elección del visitante sobre ellas («Aceptar» o «Rechazar»), durante seis meses.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Si el sitio usa Google Tag Manager para medir visitas y campañas, no lo carga, ni se instala ninguna de sus cookies, hasta que el visitante pulsa «Aceptar» en el aviso que aparece al entrar; si pulsa «Rechazar», no se carga nunca. Puede cambiar su elección en cualquier momento desde «Preferencias de privacidad», al pie de cada página. Los eventos de medición del sitio no contienen nombre, correo electrónico ni teléfono.',
        },
      ],
    },
    {
      id: 'privacidad-finalidades',
      title: 'Finalidades',
      blocks: [
        {
          kind: 'list',
          lead: 'Utilizamos los datos personales para las siguientes finalidades:',
          items: [
            'Atender la solicitud de demostración: contactar al solicitante, agendar la demostración y darle seguimiento comercial.',
            'Prestar el servicio del bot: enviar las notificaciones, los reportes y las alertas solicitados, aplicar las preferencias y los comandos del suscriptor y resolver incidencias.',
            'Medir las campañas: conocer qué campañas y canales generan solicitudes de demostración, para mejorar nuestra comunicación. Las herramientas de medición de terceros solo se usan con el consentimiento previo del visitante.',
          ],
        },
        {
          kind: 'paragraph',
          text: `No usamos los datos para fines distintos de los aquí descritos ni los vendemos a terceros. Si el titular no desea que sus datos se utilicen para medir campañas, puede indicarlo en cualquier momento a ${contact.email}, sin que ello afecte la atención de su solicitud.`,
        },
      ],
    },
    {
      id: 'privacidad-transferencias',
      title: 'Transferencias',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Para hacer llegar cada solicitud de demostración a nuestro equipo comercial utilizamos un proveedor de envío de correo electrónico, que actúa como encargado: trata los datos solo por cuenta nuestra, conforme a nuestras instrucciones y con la obligación de mantenerlos confidenciales.',
        },
        {
          kind: 'paragraph',
          text: 'Las notificaciones del bot se transmiten a través de WhatsApp, servicio de Meta Platforms, Inc., sujeto a sus propias condiciones y políticas de privacidad. Si el visitante acepta la medición, Google recibe, a través de Google Tag Manager y las herramientas que este cargue, los datos técnicos de su visita (como la dirección IP y los identificadores de sus cookies), conforme a sus propias políticas; nunca su nombre, correo electrónico ni teléfono. Fuera de estos casos, solo comunicaremos datos personales cuando lo requiera una autoridad competente o en los demás supuestos en que la ley lo permite sin necesidad de consentimiento.',
        },
      ],
    },
    {
      id: 'privacidad-arco',
      title: 'Derechos ARCO',
      blocks: [
        {
          kind: 'list',
          lead: 'El titular de los datos puede ejercer en cualquier momento los siguientes derechos:',
          items: [
            'Acceso: conocer qué datos personales suyos tratamos y para qué los usamos.',
            'Rectificación: pedir que corrijamos sus datos si son inexactos o están incompletos.',
            'Cancelación: solicitar que eliminemos sus datos de nuestros registros.',
            'Oposición: oponerse a que usemos sus datos para una finalidad determinada.',
          ],
        },
        {
          kind: 'paragraph',
          text: `Para ejercer estos derechos o revocar su consentimiento, el titular debe escribir a ${contact.email} con su nombre, el derecho que desea ejercer, una descripción clara de los datos de que se trate y un documento que acredite su identidad. Responderemos en un plazo máximo de 20 días hábiles contados desde la recepción de la solicitud, conforme a la Ley Federal de Protección de Datos Personales en Posesión de los Particulares.`,
        },
        {
          kind: 'paragraph',
          text: 'Para dejar de recibir notificaciones del bot basta con enviar BAJA o STOP; el comando surte efecto de inmediato y no requiere ningún trámite adicional. Del mismo modo, quien haya aceptado las herramientas de medición puede retirar su consentimiento con «Rechazar», desde «Preferencias de privacidad» al pie de cada página: dejan de cargarse desde la página siguiente y borramos las cookies que hubieran dejado en nuestro dominio.',
        },
      ],
    },
    {
      id: 'privacidad-conservacion',
      title: 'Conservación y cambios',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Conservamos los datos solo durante el tiempo necesario para cumplir las finalidades descritas y las obligaciones legales que nos correspondan. Los datos de las solicitudes de demostración se guardan mientras se atiende la solicitud o dura la relación comercial; los del bot, mientras la suscripción esté activa y, tras la baja, solo el tiempo necesario para atender aclaraciones o requerimientos legales. Cumplidos esos plazos, los eliminamos o anonimizamos de forma segura.',
        },
        {
          kind: 'paragraph',
          text: 'En el navegador, el borrador del formulario se elimina al enviarse la solicitud o, si no se envía, a las 24 horas de su última modificación; los datos de campaña desaparecen al cerrar la pestaña, y la elección sobre las herramientas de medición se conserva seis meses, tras los cuales volvemos a preguntar.',
        },
        {
          kind: 'paragraph',
          text: 'Podemos actualizar este aviso de privacidad. La versión vigente se publica siempre en esta página con su fecha de última actualización y, si los cambios afectan de manera relevante el tratamiento de los datos, los comunicaremos también a los suscriptores por medio del bot.',
        },
      ],
    },
  ],
} as const satisfies TermsContent
