// The editor's own dependencies (editor/package.json: Decap CMS's prebuilt bundle and its local
// file-system handlers), apart from the site's: installed into editor/node_modules on first use
// by npm run cms, by a build with the editor (CMS_GIT_HOST) and by the editor's tests. The
// editor's own modules take yaml, zod, React and the site's code from the project, as before.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { installOnFirstUse } from '../scripts/install-on-first-use.mjs'

/** Installs editor/node_modules unless it is installed from editor/package-lock.json. */
export function installEditor() {
  installOnFirstUse(import.meta.dirname)
}

/** A require that resolves Decap's packages in editor/node_modules, installed first if need be. */
export function decapRequire() {
  installEditor()
  return createRequire(join(import.meta.dirname, 'package.json'))
}
