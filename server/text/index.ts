export { errorText } from './error-text.js'
export { bounded } from './log-bounds.js'
export { visibleControls } from './visible-text.js'
