// An instant as the sales team reads it, in Spanish and in the team's time zone: the mails, the
// notices, the listings and the spreadsheet all write dates this way.

/** "martes, 24 de noviembre de 2026, 10:05"; an unreadable date as it was written. */
export function arrivedAt(iso: string, timeZone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat('es-MX', {
    timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(date)
}
