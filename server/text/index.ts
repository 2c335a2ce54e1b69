export { errorText } from './error-text.js'
export { bounded } from './log-bounds.js'
export { arrivedAt } from './team-dates.js'
export { visibleControls } from './visible-text.js'
