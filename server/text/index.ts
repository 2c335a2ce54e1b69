export { bounded } from './log-bounds.js'
export { visibleControls } from './visible-text.js'
