import { LINE_PATH_LENGTH } from '../rules/scroll-progress'
import styles from './line-draw.module.css'

// Price-chart-like strokes across a 1200×600 canvas, stretched to the section.
const LINES = [
  'M-20 420 C 160 380 240 520 420 440 S 700 220 860 300 S 1100 160 1220 120',
  'M-20 520 C 200 500 300 360 520 400 S 820 520 980 380 S 1160 300 1220 320',
  'M-20 260 C 140 300 300 180 460 220 S 760 120 920 180 S 1120 80 1220 60',
] as const

/**
 * Decorative lines that draw themselves as the visitor scrolls past their section. Static
 * markup: browser/line-draw.ts sets the stroke through the DOM, once per frame while on screen.
 */
export function LineDraw() {
  return (
    <svg
      data-line-draw=""
      className={styles.lines}
      viewBox="0 0 1200 600"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      {LINES.map((d) => (
        <path key={d} className={styles.line} d={d} pathLength={LINE_PATH_LENGTH} />
      ))}
    </svg>
  )
}
