import { markHydrated } from './islands/hydrated-marker'
import { startPage } from './start-page'

// The terms page is prerendered text with the shared header: nothing on it needs React.
startPage()
markHydrated()
