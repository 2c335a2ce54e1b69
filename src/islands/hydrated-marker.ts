/**
 * Marks the page as interactive: `<html data-hydrated="true">` once every island's first render
 * has committed (at once on a page without islands). Tests wait on it rather than on a side
 * effect of one island. A module of its own so a page without React can set it.
 */
export function markHydrated(): void {
  document.documentElement.dataset.hydrated = 'true'
}
