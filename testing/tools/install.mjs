// The test tools' own dependencies (testing/tools/package.json), apart from the project's:
// Cloudflare's local runtime for Pages (wrangler, for the static-host tests) and the Nu Html
// Checker (vnu-jar, for npm run test:html). Each function installs them on first use, then
// returns the tool's path.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { installOnFirstUse } from '../../scripts/install-on-first-use.mjs'

function toolsRequire() {
  installOnFirstUse(import.meta.dirname)
  return createRequire(join(import.meta.dirname, 'package.json'))
}

/** wrangler's command-line entry, to run with node. */
export function wranglerBin() {
  return join(dirname(toolsRequire().resolve('wrangler/package.json')), 'bin', 'wrangler.js')
}

/** The Nu Html Checker's jar, to run with java -jar. */
export function vnuJar() {
  return join(dirname(toolsRequire().resolve('vnu-jar/package.json')), 'build', 'dist', 'vnu.jar')
}
