import { hydrateIslands } from './islands/hydrate-islands'
import { reportVideoSectionPlays } from './lib/video-events'
import { homeIslands } from './pages/home-islands'
import { startPage } from './start-page'

startPage()
reportVideoSectionPlays()
hydrateIslands(homeIslands)
