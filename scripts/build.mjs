// npm run build: the static site in dist/ and the compiled server in build/server/.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { prerender } from './prerender.mjs'

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' })
const bin = (name) => `node_modules/.bin/${name}`

run(bin('tsc'), ['-p', 'tsconfig.server.json'])
run(bin('vite'), ['build', '--emptyOutDir', '--logLevel', 'warn'])
run(bin('vite'), [
  'build',
  '--ssr',
  'src/prerender.tsx',
  '--outDir',
  'build/ssr',
  '--emptyOutDir',
  '--logLevel',
  'warn',
])
await prerender({ distDir: 'dist', ssrDir: 'build/ssr', env: process.env })
if (existsSync('build/server/postbuild.js')) run('node', ['build/server/postbuild.js', 'dist'])
console.log('Built dist/ (static site) and build/server/ (production server).')
