// The compiled server the server tests run (through testing/site.ts): compiled to
// build/test-server-node<N>/, not build/server/, so these tests can run while `npm run build`
// writes build/server/ (npm test runs them side by side), and while the same tests run on the
// other supported Node line. One level below build/, as build/server/ is: the server finds the
// repository at ../../.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from '../site.js'

const OUT_DIR = `build/test-server-node${process.versions.node.split('.')[0]}`
/** Where compileServer() writes the compiled tree (server/ and the src/ modules it imports). */
export const TEST_BUILD_DIR = `${REPO_ROOT}${OUT_DIR}`
/** Where compileServer() writes the server itself. */
export const TEST_SERVER_DIR = `${TEST_BUILD_DIR}/server`
export const MAIN_JS = `${TEST_SERVER_DIR}/main.js`
export const OUTBOX_CLI_JS = `${TEST_SERVER_DIR}/cli/outbox.js`

/** Compiles server/ as `npm run build` does, into the tests' own directory (compile-once.ts). */
export function compileServer(): void {
  // TypeScript 7, as the build compiles it (pipeline/typescript.mjs); its package exports no
  // bin/ path, so it is found beside its package.json.
  const manifest = createRequire(import.meta.url).resolve('typescript-native/package.json')
  const tsc = join(dirname(manifest), 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json', '--outDir', OUT_DIR], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  })
}
