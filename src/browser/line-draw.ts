import { LINE_TWEEN_SECONDS, scrollProgress, strokeOffset } from '../rules/scroll-progress'

/**
 * Draws the decorative lines of components/line-draw.tsx (an SVG marked data-line-draw) as the
 * visitor scrolls past their section. Scroll events are read once per frame and only while the
 * section is on screen; under reduced motion the CSS draws them whole and nothing runs.
 * Returns a function that stops it.
 * @internal its tests use it too
 */
export function drawLinesOnScroll(svg: SVGSVGElement): () => void {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return () => undefined
  const paths = [...svg.querySelectorAll('path')]
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
    if (entry?.isIntersecting) window.addEventListener('scroll', schedule, { passive: true })
    else window.removeEventListener('scroll', schedule)
    schedule()
  })
  observer.observe(svg)
  return () => {
    observer.disconnect()
    window.removeEventListener('scroll', schedule)
    cancelAnimationFrame(frame)
  }
}

/** Every such drawing of the page. */
export function drawAllLinesOnScroll(doc: Document = document): void {
  for (const svg of doc.querySelectorAll<SVGSVGElement>('svg[data-line-draw]'))
    drawLinesOnScroll(svg)
}
