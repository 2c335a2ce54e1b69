// npm start: serve the production build, building it first only when there is none.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

if (!existsSync('dist/index.html') || !existsSync('build/server/main.js')) {
  console.log('No production build yet: running npm run build first.')
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
}
await import('../build/server/main.js')
