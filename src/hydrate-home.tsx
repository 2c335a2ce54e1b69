import { hydrateIslands } from './islands/hydrate-islands'
import { homeIslands } from './pages/home-islands'

/** React and the home page's islands: loaded after the first paint by entry-home. */
export const hydrateHome = () => hydrateIslands(homeIslands)
