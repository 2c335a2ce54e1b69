/**
 * Moves keyboard focus along with in-page links, so the next Tab continues from the section
 * the visitor jumped to. The browser still does the (smooth) scrolling.
 */
export function focusInPageLinkTargets(doc: Document = document): void {
  const focusTarget = (hash: string) => {
    const id = decodeURIComponent(hash.slice(1))
    const target = id ? doc.getElementById(id) : null
    if (!target) return
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
    target.focus({ preventScroll: true })
  }
  doc.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || !(event.target instanceof Element)) return
    const link = event.target.closest('a[href^="#"]')
    const hash = link?.getAttribute('href')
    if (hash && hash.length > 1) requestAnimationFrame(() => focusTarget(hash))
  })
  if (doc.location.hash.length > 1) focusTarget(doc.location.hash)
}
