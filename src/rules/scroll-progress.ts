/** Length every line of the scroll-drawn effect is normalised to (SVG pathLength). */
export const LINE_PATH_LENGTH = 1700
/** The tween that smooths the stroke between scroll events, in seconds. */
export const LINE_TWEEN_SECONDS = 0.2

const clamp01 = (value: number) => Math.min(1, Math.max(0, value))

/**
 * How far the visitor has scrolled through an element, from 0 when its top enters the bottom
 * of the viewport (the start position; anything above it reads 0, so the lines reset) to 1
 * when its bottom leaves the top.
 */
export function scrollProgress(top: number, height: number, viewportHeight: number): number {
  const distance = height + viewportHeight
  if (distance <= 0) return 0
  return clamp01((viewportHeight - top) / distance)
}

/** The stroke-dashoffset that shows `progress` of a line of LINE_PATH_LENGTH. */
export const strokeOffset = (progress: number) => LINE_PATH_LENGTH * (1 - clamp01(progress))
