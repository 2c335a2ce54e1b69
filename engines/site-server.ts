// Vitest global setup: the browser suites' site (testing/site.ts, startSuiteSite), as the
// Playwright suite has it, on a free port.
import { rm } from 'node:fs/promises'
import type { TestProject } from 'vitest/node'
import { startSuiteSite } from '../testing/site.js'

declare module 'vitest' {
  export interface ProvidedContext {
    siteOrigin: string
  }
}

/**
 * The DATA_DIR where the server stores the journeys' demo requests, emptied at each run. Not
 * under test-results/, which Playwright empties when it starts, perhaps beside this suite.
 */
export const ENGINES_OUTBOX_DIR = 'engines-results/data'

export default async function setup(project: TestProject) {
  await rm(ENGINES_OUTBOX_DIR, { recursive: true, force: true })
  const site = await startSuiteSite(ENGINES_OUTBOX_DIR)
  project.provide('siteOrigin', site.origin)
  return () => site.stop()
}
