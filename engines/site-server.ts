// Vitest global setup: the production build, served in local mode by the same test server as
// the Playwright suite's (testing/site.ts, with the full-disk seam), on a free port.
import type { TestProject } from 'vitest/node'
import { startSite } from '../testing/site.js'

declare module 'vitest' {
  export interface ProvidedContext {
    siteOrigin: string
  }
}

/** Where the server stores the journeys' demo requests. */
export const ENGINES_OUTBOX_DIR = 'test-results/engines-outbox'

export default async function setup(project: TestProject) {
  const site = await startSite({
    host: 'node',
    build: 'working-tree',
    withFullDisk: true,
    showErrors: true,
    env: {
      DATA_DIR: ENGINES_OUTBOX_DIR,
      // Every journey sends from 127.0.0.1; three engines side by side exceed a visitor's limit.
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    },
  })
  project.provide('siteOrigin', site.origin)
  return () => site.stop()
}
