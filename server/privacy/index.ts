export { RULE_LABELS } from './erasure-log.js'
export { requestsOf } from './lead-privacy.js'
export { type Person, personOf, sentBy } from './person-match.js'
export { RetentionJob } from './retention.js'
