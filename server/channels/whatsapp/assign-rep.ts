// Which reps a request goes to on WhatsApp, by the visitor's phone: its territory (the calling
// code, when the routes name it; `*` otherwise) and its reps starting with the one whose turn
// it is. The store keeps the turns and writes the route with the request (store/whatsapp.ts).
import type { CountryCode } from 'libphonenumber-js/max'
import type { DemoRequestRecord, RouteChoice } from '../../store/index.js'
import { parsePhone } from '../../settings/index.js'
import { repsInTurn, type WhatsAppRoutes } from '../../settings/index.js'

/** What LeadStore.append stores with a request when WhatsApp is on. */
export function assignRep(routes: WhatsAppRoutes, regions: readonly CountryCode[]) {
  return (record: DemoRequestRecord): RouteChoice => {
    const phone = parsePhone(record.params.user_phone ?? '', regions)
    const callingCode =
      phone !== null && routes.territories.has(phone.callingCode) ? phone.callingCode : null
    return {
      territory: callingCode === null ? '*' : `+${callingCode}`,
      reps: (turn) => repsInTurn(routes, callingCode, turn).reps,
    }
  }
}
