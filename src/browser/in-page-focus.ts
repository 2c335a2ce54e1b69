/**
 * Moves keyboard focus along with in-page links, so the next Tab continues from the section
 * the visitor jumped to. The browser still does the (smooth) scrolling.
 *
 * Focus moves on `hashchange`, once the browser's own fragment navigation has run, not on a
 * frame after the click: Chromium focuses a focusable fragment target itself when that
 * navigation runs, and on a busy phone it can run after a frame has passed, taking focus back
 * from a field the visitor has already tabbed to.
 */
export function focusInPageLinkTargets(): void {
  const focusTarget = () => {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)))
    if (!target || document.activeElement === target) return
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
    target.focus({ preventScroll: true })
  }
  // The fragment already in the address fires no hashchange when its link is followed again.
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element && event.target.closest('a')
    if (link && !event.defaultPrevented && link.getAttribute('href') === location.hash) {
      focusTarget()
    }
  })
  addEventListener('hashchange', focusTarget)
  focusTarget()
}
