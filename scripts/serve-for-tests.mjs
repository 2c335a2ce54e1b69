// Playwright's web server: the production server on a build of exactly this working tree and
// these settings. A dist/ from other sources or settings is rebuilt first, never tested.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { staleReason } from './build-stamp.mjs'

const stale = existsSync('build/server/main.js') ? staleReason('dist') : 'there is no build/server/'
if (stale) {
  console.log(`${stale}: building before the tests.`)
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
}
await import('../build/server/main.js')
