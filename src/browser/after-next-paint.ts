/**
 * Runs `work` once the browser has painted the current frame: a requestAnimationFrame callback
 * runs just before that paint, and a task queued from it runs just after. Work that the visitor
 * does not need to see in the frame that answers a tap goes here, so the answer paints first.
 * Returns a function that cancels whatever has not run yet. No React here: the pages' first
 * script uses it too, and /tyc loads no React.
 */
export function afterNextPaint(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(work, 0)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}
