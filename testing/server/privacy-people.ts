// The people of the privacy tests (access, export and erasure, in the store and through
// `npm run outbox`): Ana, who wrote three times, and others whose address or number is close to
// hers, so that finding "every request of a person and none of another's" can fail both ways.
import type { DemoRequestRecord } from '../../server/store/record.js'

const idOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** The n-th request of the tests, a second apart from 1 January 2026. */
export const request = (n: number, params: Record<string, string>): DemoRequestRecord => ({
  id: idOf(n),
  receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  serviceId: 'service_local',
  templateId: 'template_demo',
  params: { user_group: 'Grupo Norte', contact_number: String(n), ...params },
})

/** Ana wrote three times, her number each time another way, once from another address. */
export const ANA = [
  request(1, {
    user_name: 'Ana López',
    user_email: 'Ana@Gasolinera.MX',
    user_phone: '+52 55 1234 5678',
  }),
  request(2, {
    user_name: 'Ana López',
    user_email: ' ana@gasolinera.mx',
    user_phone: '55 1234 5678',
  }),
  request(3, { user_name: 'Ana L.', user_email: 'ana.lopez@otro.mx', user_phone: '5512345678' }),
]

/** Others whose name, address or number is close to hers. */
export const OTHERS = [
  request(4, {
    user_name: 'Juana Pérez',
    user_email: 'juana@gasolinera.mx',
    user_phone: '+52 55 1234 5679',
  }),
  request(5, {
    user_name: 'Ana Smith',
    user_email: 'ana@gasolinera.mx.example',
    user_phone: '+1 55 1234 5678',
  }),
  request(6, {
    user_name: 'Anabel Ruiz',
    user_email: 'anabel@gasolinera.mx',
    user_phone: '+34 612 345 678',
  }),
]
