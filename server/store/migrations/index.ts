// The store's migrations, in order, by the names databases have recorded them under.
import type { Migration, MigrationProvider } from 'kysely'
import { requestsAndDeliveries } from './001-requests-and-deliveries.js'
import { probe } from './002-probe.js'
import { channelHealth } from './003-channel-health.js'
import { heldRequests } from './020-held-requests.js'
import { erasureLog } from './030-erasures.js'
import { whatsapp } from './040-whatsapp.js'
import { oneJobQueue } from './050-one-job-queue.js'
import { idempotencyKeys } from './060-idempotency-keys.js'
import { faultsAndEscalations } from './070-faults-and-escalations.js'
import { listingOrder } from './080-listing-order.js'
import { booking } from './090-booking.js'

/**
 * Versioned migrations: append new ones, never edit or rename one that has shipped (databases
 * record each by its name). Named in the order they are applied: the migrator refuses one that
 * sorts before an applied one.
 */
const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-requests-and-deliveries': requestsAndDeliveries,
  '002-probe': probe,
  '003-channel-health': channelHealth,
  '020-held-requests': heldRequests,
  '030-erasures': erasureLog,
  '040-whatsapp': whatsapp,
  '050-one-job-queue': oneJobQueue,
  '060-idempotency-keys': idempotencyKeys,
  '070-faults-and-escalations': faultsAndEscalations,
  '080-listing-order': listingOrder,
  '090-booking': booking,
}

export const migrations: MigrationProvider = { getMigrations: async () => MIGRATIONS }
