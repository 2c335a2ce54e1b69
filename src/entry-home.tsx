import { reportVideoSectionPlays } from './lib/video-events'
import { startPage } from './start-page'

startPage()
reportVideoSectionPlays()

// The prerendered page paints from its HTML; React and the islands arrive right after the first
// frame, so they never delay it. Until then a submit is held: once hydrateRoot runs, React
// replays what the visitor did.
const holdSubmit = (event: Event) => event.preventDefault()
document.addEventListener('submit', holdSubmit, true)
requestAnimationFrame(() =>
  setTimeout(async () => {
    const { hydrateHome } = await import('./hydrate-home')
    hydrateHome()
    document.removeEventListener('submit', holdSubmit, true)
  }),
)
