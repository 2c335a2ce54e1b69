// npm run build: the static site in dist/ (or BUILD_OUT_DIR) and the compiled server in build/server/.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { STAMP_FILE, currentStamp } from './build-stamp.mjs'
import { prerender } from './prerender.mjs'

const outDir = process.env.BUILD_OUT_DIR ?? 'dist'
// A second, differently configured build (the e2e tests make some) needs its own server render
// directory, and can reuse the compiled server instead of rewriting it under a running test.
const ssrDir = process.env.BUILD_SSR_DIR ?? 'build/ssr'
const compileServer = process.env.BUILD_SERVER !== 'reuse'
// Where the server is compiled to, and postbuild runs from: a build made beside npm test's own
// (the host tests make one) uses its own copy.
const serverDir = process.env.BUILD_SERVER_DIR ?? 'build/server'
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' })
const bin = (name) => `node_modules/.bin/${name}`
// Taken first: a file edited while the build runs makes the build stale, not the stamp wrong.
const stamp = currentStamp(process.env)

if (compileServer) run(bin('tsc'), ['-p', 'tsconfig.server.json', '--outDir', serverDir])
run(bin('vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'])
run(bin('vite'), [
  'build',
  '--ssr',
  'src/prerender.tsx',
  '--outDir',
  ssrDir,
  '--emptyOutDir',
  '--logLevel',
  'warn',
])
await prerender({ distDir: outDir, ssrDir, env: process.env })
run(process.execPath, [join(serverDir, 'postbuild.js'), outDir])
writeFileSync(join(outDir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`)
console.log(`Built ${outDir}/ (static site) and ${serverDir}/ (production server).`)
