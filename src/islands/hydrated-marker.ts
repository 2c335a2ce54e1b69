/**
 * Marks the page as interactive: `<html data-hydrated="true">` once every island has hydrated
 * and committed the state its first effects set (at once on a page without islands). Tests wait on it rather than on a side
 * effect of one island. A module of its own so a page without React can set it.
 */
export function markHydrated(): void {
  document.documentElement.dataset.hydrated = 'true'
}
