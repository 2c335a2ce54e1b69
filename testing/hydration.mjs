// When a page is ready for a visitor's input: `<html data-hydrated="true">`, set once every
// island has hydrated and committed its first state (src/islands/hydrated-marker.ts; at once on
// a page without islands). Every suite and bench waits on this marker and on nothing else: not a
// side effect of one island, not a quiet network, not a pause.

export const HYDRATED_SELECTOR = 'html[data-hydrated="true"]'

/**
 * Waits until a Playwright page (the e2e tests' or a bench's) has hydrated. The wait runs in
 * Playwright, not in the page, so a page whose clock a test holds still is waited for too.
 * @param {{ locator(selector: string): { waitFor(options: { state: 'attached' }): Promise<void> } }} page
 */
export async function waitForHydration(page) {
  await page.locator(HYDRATED_SELECTOR).waitFor({ state: 'attached' })
}

/** Sets the marker once the app has rendered into `#root` and that render has painted. */
function markOnceRendered() {
  const mark = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        document.documentElement.dataset.hydrated = 'true'
      }),
    )
  new MutationObserver((_, observer) => {
    if (!document.getElementById('root')?.firstElementChild) return
    observer.disconnect()
    mark()
  }).observe(document, { childList: true, subtree: true })
}

/**
 * For pages without islands of their own, a client-rendered app such as the benches' peer: the
 * same marker, set once the app has rendered and painted, so the benches wait for both sites
 * the same way.
 * @param {{ addInitScript(script: () => void): Promise<void> }} context a Playwright context or page
 */
export async function markHydratedOnceRendered(context) {
  await context.addInitScript(markOnceRendered)
}
