// An instant as the sales team reads it, in Spanish and in the team's time zone: the mails, the
// notices, the listings and the spreadsheet all write dates this way.

/** "martes, 24 de noviembre de 2026, 10:05"; an unreadable date as it was written. */
export function arrivedAt(iso: string, timeZone: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return formatterFor(timeZone).format(date)
}

/**
 * One formatter per time zone, made once. A formatter holds ICU memory outside the JavaScript
 * heap, freed only when its small wrapper is collected: one made per date (the listing makes a
 * few per request) grew `npm run outbox` past 1.7 GB on a 375 MB store (bench:outbox).
 */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>()
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('es-MX', {
      timeZone,
      dateStyle: 'full',
      timeStyle: 'short',
      hourCycle: 'h23',
    })
    FORMATTERS.set(timeZone, formatter)
  }
  return formatter
}
