// A rep's week as the booking tests hold it in a calendar: Ana works in Madrid, Monday to Friday
// 09:00-14:00, in meetings of 30 minutes, in the week the clocks go back (Sunday 25 October
// 2026, 03:00 CEST becomes 02:00 CET). The events: a daily stand-up at 09:00 Madrid time set in
// summer time (so it moves from 07:00 to 08:00 UTC), without Tuesday's (EXDATE) and with
// Wednesday's moved to 12:00 (RECURRENCE-ID); a call set in Mexico City time; Thursday off all
// day; a slot marked free (TRANSP:TRANSPARENT) and a cancelled meeting, which take no time; and
// a meeting whose TZID names an IANA zone without a VTIMEZONE.

/** Friday 23 October 2026, 17:00 in Madrid: the week above is the next one. */
export const FRIDAY_EVENING = Date.UTC(2026, 9, 23, 15, 0)

export const REP_ZONE = 'Europe/Madrid'
export const REP_HOURS_TEXT = 'lun-vie 09:00-14:00'

const MADRID = `BEGIN:VTIMEZONE
TZID:Europe/Madrid
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`

const MEXICO_CITY = `BEGIN:VTIMEZONE
TZID:America/Mexico_City
BEGIN:STANDARD
TZOFFSETFROM:-0600
TZOFFSETTO:-0600
TZNAME:CST
DTSTART:19700101T000000
END:STANDARD
END:VTIMEZONE`

const calendar = (zones: string, events: string): string =>
  `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//GASPRE tests//ES
${zones}
${events}
END:VCALENDAR
`.replace(/\r?\n/g, '\r\n')

/** Each event as one calendar object (a file of the collection), by its file name. */
export const REP_EVENTS: Record<string, string> = {
  'stand-up.ics': calendar(
    MADRID,
    `BEGIN:VEVENT
UID:stand-up@test
DTSTAMP:20261001T000000Z
SUMMARY:Reunión diaria
DTSTART;TZID=Europe/Madrid:20261019T090000
DTEND;TZID=Europe/Madrid:20261019T093000
RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20261231T230000Z
EXDATE;TZID=Europe/Madrid:20261027T090000
END:VEVENT
BEGIN:VEVENT
UID:stand-up@test
DTSTAMP:20261001T000000Z
SUMMARY:Reunión diaria (movida)
RECURRENCE-ID;TZID=Europe/Madrid:20261028T090000
DTSTART;TZID=Europe/Madrid:20261028T120000
DTEND;TZID=Europe/Madrid:20261028T123000
END:VEVENT`,
  ),
  'mexico-call.ics': calendar(
    MEXICO_CITY,
    `BEGIN:VEVENT
UID:mexico-call@test
DTSTAMP:20261001T000000Z
SUMMARY:Llamada con Monterrey
DTSTART;TZID=America/Mexico_City:20261026T030000
DTEND;TZID=America/Mexico_City:20261026T040000
END:VEVENT`,
  ),
  'day-off.ics': calendar(
    '',
    `BEGIN:VEVENT
UID:day-off@test
DTSTAMP:20261001T000000Z
SUMMARY:Día libre
DTSTART;VALUE=DATE:20261029
DTEND;VALUE=DATE:20261030
END:VEVENT`,
  ),
  'free-slot.ics': calendar(
    MADRID,
    `BEGIN:VEVENT
UID:free-slot@test
DTSTAMP:20261001T000000Z
SUMMARY:Hueco para llamadas
TRANSP:TRANSPARENT
DTSTART;TZID=Europe/Madrid:20261027T110000
DTEND;TZID=Europe/Madrid:20261027T120000
END:VEVENT`,
  ),
  'cancelled.ics': calendar(
    MADRID,
    `BEGIN:VEVENT
UID:cancelled@test
DTSTAMP:20261001T000000Z
SUMMARY:Visita cancelada
STATUS:CANCELLED
DTSTART;TZID=Europe/Madrid:20261027T120000
DTEND;TZID=Europe/Madrid:20261027T130000
END:VEVENT`,
  ),
  'bogota.ics': calendar(
    '',
    `BEGIN:VEVENT
UID:bogota@test
DTSTAMP:20261001T000000Z
SUMMARY:Demo con Bogotá
DTSTART;TZID=America/Bogota:20261030T060000
DTEND;TZID=America/Bogota:20261030T070000
END:VEVENT`,
  ),
}

/** An instant given as Madrid's wall clock on a day of that week (after the change: CET, +1). */
export const madrid = (day: number, hour: number, minute = 0): number =>
  Date.UTC(2026, 9, day, hour - (day >= 25 ? 1 : 2), minute)
