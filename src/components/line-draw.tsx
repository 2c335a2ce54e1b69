import { useEffect, useRef } from 'react'
import {
  LINE_PATH_LENGTH,
  LINE_TWEEN_SECONDS,
  scrollProgress,
  strokeOffset,
} from '../rules/scroll-progress'
import styles from './line-draw.module.css'

// Price-chart-like strokes across a 1200×600 canvas, stretched to the section.
const LINES = [
  'M-20 420 C 160 380 240 520 420 440 S 700 220 860 300 S 1100 160 1220 120',
  'M-20 520 C 200 500 300 360 520 400 S 820 520 980 380 S 1160 300 1220 320',
  'M-20 260 C 140 300 300 180 460 220 S 760 120 920 180 S 1120 80 1220 60',
] as const

/**
 * Decorative lines that draw themselves as the visitor scrolls past their section.
 * Scroll events are read once per frame and only while the section is on screen; the stroke
 * is set through the DOM so React does not re-render on scroll.
 */
export function LineDraw() {
  const svgRef = useRef<SVGSVGElement>(null)

  useEffect(() => {
    const svg = svgRef.current
    if (!svg || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    const paths = Array.from(svg.querySelectorAll('path'))
    // The tween between two scroll positions; reduced motion, which returned above, has none.
    for (const path of paths) path.style.transitionDuration = `${LINE_TWEEN_SECONDS}s`
    let frame = 0
    const draw = () => {
      frame = 0
      const rect = svg.getBoundingClientRect()
      const offset = String(strokeOffset(scrollProgress(rect.top, rect.height, window.innerHeight)))
      for (const path of paths) path.style.strokeDashoffset = offset
    }
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw)
    }
    const observer = new IntersectionObserver(([entry]) => {
      if (entry?.isIntersecting) {
        window.addEventListener('scroll', schedule, { passive: true })
        schedule()
      } else {
        window.removeEventListener('scroll', schedule)
        schedule()
      }
    })
    observer.observe(svg)
    return () => {
      observer.disconnect()
      window.removeEventListener('scroll', schedule)
      cancelAnimationFrame(frame)
    }
  }, [])

  return (
    <svg
      ref={svgRef}
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
