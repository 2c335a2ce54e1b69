import { afterNextPaint } from './browser/after-next-paint'
import { enhanceCarousels } from './browser/carousel'
import { drawAllLinesOnScroll } from './browser/line-draw'
import { reportVideoSectionPlays } from './browser/video-events'
import { startPage } from './start-page'

startPage()
reportVideoSectionPlays()
// The carousel and its lines need no React: they work on the prerendered markup at once.
enhanceCarousels()
drawAllLinesOnScroll()

// The prerendered page paints from its HTML; React and the islands arrive right after the first
// frame, so they never delay it. Until the form's island hydrates, a submit is held by the inline
// script in <head> (islands/hold-early-submits.js); the island then sends it, once.
afterNextPaint(() => void import('./hydrate-home').then(({ hydrateHome }) => hydrateHome()))
