// Playwright's global setup: the production build of this tree (rebuilt first if dist/ is
// stale), served with the browser suites' full-disk seam on a free port, so the suite runs beside
// another checkout's or the journeys. The workers start after this and inherit E2E_ORIGIN, which
// playwright.config.ts reads as the baseURL.
import { startSuiteSite } from '../testing/site.js'
import { OUTBOX_DIR } from '../playwright.config'

export default async function startTheSite(): Promise<() => Promise<void>> {
  const site = await startSuiteSite(OUTBOX_DIR)
  process.env.E2E_ORIGIN = site.origin
  return () => site.stop()
}
