// Playwright's global setup: the production build of this tree (rebuilt first if dist/ is
// stale), served with the browser suites' full-disk seam on a free port, so the suite runs beside
// another checkout's or the journeys. The workers start after this and inherit E2E_ORIGIN, which
// playwright.config.ts reads as the baseURL.
import { startSite } from '../testing/site.js'
import { OUTBOX_DIR } from '../playwright.config'

export default async function startTheSite(): Promise<() => Promise<void>> {
  const site = await startSite({
    host: 'node',
    build: 'working-tree',
    withFullDisk: true,
    showErrors: true,
    env: {
      DATA_DIR: OUTBOX_DIR,
      // Every test sends from 127.0.0.1: lift the rate limits (the server tests check them).
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    },
  })
  process.env.E2E_ORIGIN = site.origin
  return () => site.stop()
}
