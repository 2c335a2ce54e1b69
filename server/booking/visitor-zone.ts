// The visitor's likely time zone, from the country of the phone they wrote: the zone of the
// country's capital, or of its most populous zone where that is another. A page without
// JavaScript cannot ask the browser, so it names the zone it shows, and the picker, which can,
// uses the browser's own. A country not listed, or no number, gets the rep's zone.
import { parsePhone } from '../settings/index.js'
import type { CountryCode } from 'libphonenumber-js/max'

const ZONES: Partial<Record<CountryCode, string>> = {
  MX: 'America/Mexico_City',
  US: 'America/New_York',
  CA: 'America/Toronto',
  GT: 'America/Guatemala',
  SV: 'America/El_Salvador',
  HN: 'America/Tegucigalpa',
  NI: 'America/Managua',
  CR: 'America/Costa_Rica',
  PA: 'America/Panama',
  CU: 'America/Havana',
  DO: 'America/Santo_Domingo',
  PR: 'America/Puerto_Rico',
  CO: 'America/Bogota',
  VE: 'America/Caracas',
  EC: 'America/Guayaquil',
  PE: 'America/Lima',
  BO: 'America/La_Paz',
  CL: 'America/Santiago',
  AR: 'America/Argentina/Buenos_Aires',
  UY: 'America/Montevideo',
  PY: 'America/Asuncion',
  BR: 'America/Sao_Paulo',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  GB: 'Europe/London',
  FR: 'Europe/Paris',
  DE: 'Europe/Berlin',
  IT: 'Europe/Rome',
}

/** The time zone to show a visitor times in, from the phone they wrote. */
export function visitorZone(
  phone: string,
  regions: readonly CountryCode[],
  repZone: string,
): string {
  const country = parsePhone(phone, regions)?.country
  return (country !== null && country !== undefined && ZONES[country]) || repZone
}
