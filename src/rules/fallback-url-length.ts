/**
 * Phones refuse or cut longer links; this leaves room for the app that opens them. A module of
 * its own, free of content imports, so the browser suites can read it outside Vite.
 */
export const MAX_FALLBACK_URL_LENGTH = 2000
