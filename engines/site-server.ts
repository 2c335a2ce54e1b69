// Vitest global setup: the production build, served in local mode by the same test server as
// the Playwright suite's (testing/serve-for-tests.mjs).
import { spawn } from 'node:child_process'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    siteOrigin: string
  }
}

// Apart from Playwright's E2E_PORT (default 4173), so both suites can run at once.
const PORT = Number(process.env.ENGINES_PORT ?? 4174)
const ORIGIN = `http://127.0.0.1:${PORT}`
/** Where the server stores the journeys' demo requests. */
export const ENGINES_OUTBOX_DIR = 'test-results/engines-outbox'

async function waitUntilHealthy(exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 180_000
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the site server exited before it was ready')
    try {
      if ((await fetch(`${ORIGIN}/healthz`)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the site server did not answer on ${ORIGIN} within 180 s`)
}

export default async function setup(project: TestProject) {
  const server = spawn(process.execPath, ['testing/serve-for-tests.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: ENGINES_OUTBOX_DIR,
      // Every journey sends from 127.0.0.1; three engines side by side exceed a visitor's limit.
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    },
  })
  await waitUntilHealthy(() => server.exitCode !== null)
  project.provide('siteOrigin', ORIGIN)
  return () => {
    server.kill('SIGTERM')
  }
}
