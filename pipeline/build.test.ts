import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../testing/site.js'

describe('npm run build on a static host', () => {
  it.each([
    ['Cloudflare Pages', { CF_PAGES: '1' }],
    ['Netlify', { NETLIFY: 'true' }],
  ])('refuses to build for %s without the e-mail service, naming what to set', (host, hostEnv) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(VITE_|CF_PAGES|NETLIFY)/.test(name)),
    )
    const build = spawnSync(process.execPath, ['pipeline/build.mjs'], {
      cwd: REPO_ROOT,
      env: { ...env, ...hostEnv },
      encoding: 'utf8',
    })
    expect(build.status).toBe(1)
    expect(build.stderr).toContain(`Building on ${host} without VITE_EMAILJS_PUBLIC_KEY`)
    expect(build.stderr).toMatch(/VITE_EMAILJS_SERVICE_ID and VITE_EMAILJS_TEMPLATE_ID/)
  })
})

describe('npm run build with the content editor', () => {
  it('refuses a Git host without the repository to publish to, before it builds anything', () => {
    const build = spawnSync(process.execPath, ['pipeline/build.mjs'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CMS_GIT_HOST: 'github', CMS_REPO: '' },
      encoding: 'utf8',
    })
    expect(build.status).toBe(1)
    expect(build.stderr).toContain(
      'The build stopped: CMS_GIT_HOST is set but CMS_REPO is not: name the repository (owner/name)',
    )
  })
})
