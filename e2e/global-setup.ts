// Playwright's global setup: the production build of this tree (rebuilt first if dist/ is
// stale), served with the browser suites' full-disk seam on a free port, so the suite runs beside
// another checkout's or the journeys. The workers start after this and inherit E2E_ORIGIN, which
// playwright.config.ts reads as the baseURL.
import { spawn } from 'node:child_process'
import { REPO_ROOT, startSuiteSite } from '../testing/site.js'
import { OUTBOX_DIR } from '../playwright.config'

export default async function startTheSite(): Promise<() => Promise<void>> {
  const editor = installTheEditorMeanwhile()
  const site = await startSuiteSite(OUTBOX_DIR)
  process.env.E2E_ORIGIN = site.origin
  return async () => {
    await site.stop()
    await editor
  }
}

/**
 * The editor's own packages (editor/install.mjs), which the editor's suites and its build need:
 * on a fresh clone their install takes half a minute, which one worker spent waiting inside a
 * hook while the other ran on. Started here, it runs beside the first tests; a worker that needs
 * the packages before it ends waits for it on the install's lock, and one that finds it failed
 * installs them itself and says why. Resolves once it has ended, however it ended.
 */
async function installTheEditorMeanwhile(): Promise<void> {
  const install = spawn(
    process.execPath,
    [
      '--input-type=module',
      '--eval',
      "import { installEditor } from './editor/install.mjs'; installEditor()",
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  )
  // A failure here is no failure of the suite: the install is then left to the worker that needs it.
  await new Promise((done) => {
    install.once('close', done)
    install.once('error', done)
  })
}
