// A lead server of a spec's own, for what the suite's shared server cannot show (its own
// channels, its own team file): the build the suite's global setup made and serves, never
// built again under it, on a store of its own.
import { rm } from 'node:fs/promises'
import { startSite, type RunningSite } from '../testing/site'

/** Starts it on an empty store in `dataDir`, its errors shown, its log at warn and above. */
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
