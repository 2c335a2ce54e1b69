// For specs that run a server or make a build of their own, for what the suite's shared server
// cannot show (its own channels, its own team file, another build's settings).
import { rm } from 'node:fs/promises'
import { startSite, type RunningSite } from '../testing/site'
import { test } from './fixtures'

/**
 * For a describe block whose beforeAll starts a server or makes a build of its own: one layout
 * (the desktop's) runs it, its tests in order, each within `timeout` (the hook counts against
 * the first; two builds at once would share build/ssr). A describe-level skip does not stop a
 * beforeAll hook; a skip in a beforeAll registered before it does (Playwright runs no further
 * beforeAll of the block once one skips).
 */
export function onOneLayout(reason: string, timeout: number): void {
  test.skip(({ isMobile }) => isMobile, reason)
  test.describe.configure({ mode: 'serial', timeout })
  test.beforeAll(({ isMobile }) => test.skip(isMobile, reason))
}

/**
 * A lead server of the spec's own on the build the suite's global setup made and serves (never
 * built again under it): on an empty store in `dataDir`, its errors shown, its log at warn.
 */
export async function startOwnServer(
  dataDir: string,
  env: Record<string, string>,
): Promise<RunningSite> {
  await rm(dataDir, { recursive: true, force: true })
  return startSite({
    host: 'node',
    build: { dir: 'dist' },
    showErrors: true,
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
  })
}
