// The record of erasures, as the sales team reads it: the store keeps it (store/erasure.ts)
// without personal data; this names each rule in Spanish.
import type { ErasureRule } from '../store/index.js'

/** How the sales team reads each rule. */
export const RULE_LABELS: Record<ErasureRule, string> = {
  'person-request': 'solicitud de la persona',
  retention: 'retención',
  held: 'descarte de las retenidas en una avalancha',
}
