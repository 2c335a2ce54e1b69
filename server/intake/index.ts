export { BODY_LIMIT, demoIntake, SEND_FORM_PATH, SEND_PATH } from './demo-intake.js'
export { LARGEST_RECORD_BYTES } from './demo-request-check.js'
export { DEFAULT_TIMEOUTS, type ServerLimits, type ServerTimeouts } from './limits.js'
