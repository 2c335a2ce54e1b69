export { type Span } from './busy-times.js'
export { type CalendarHealth, CalendarReader } from './calendar-reader.js'
export { BOOKING_RULE, freeStarts } from './free-times.js'
