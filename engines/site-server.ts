// Vitest global setup: the browser suites' site (testing/site.ts, startSuiteSite), as the
// Playwright suite has it, on a free port.
import type { TestProject } from 'vitest/node'
import { startSuiteSite } from '../testing/site.js'

declare module 'vitest' {
  export interface ProvidedContext {
    siteOrigin: string
  }
}

/** Where the server stores the journeys' demo requests. */
export const ENGINES_OUTBOX_DIR = 'test-results/engines-outbox'

export default async function setup(project: TestProject) {
  const site = await startSuiteSite(ENGINES_OUTBOX_DIR)
  project.provide('siteOrigin', site.origin)
  return () => site.stop()
}
