import { hero } from '../testing/content'
import { ConfiguredBuild } from './configured-build'
import { expect, test } from './fixtures'

/**
 * A build made with the content editor for a Git host (CMS_GIT_HOST): the editor opens at
 * /admin/ under a policy of its own, with nothing refused (a refusal is a console error, which
 * fails the test), and the site's pages keep their own policy, not weakened.
 */
test.describe('a build with the content editor for GitHub', () => {
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for the wiring')
  // A ceiling, not a timing: the hook makes a whole production build, with the editor's 5 MB
  // bundle to compress, beside other tests and the journeys.
  test.describe.configure({ mode: 'serial', timeout: 600_000 })

  const site = new ConfiguredBuild('editor')
  let origin = ''

  test.beforeAll(async ({ isMobile }) => {
    test.skip(isMobile, 'one layout is enough for the wiring')
    await site.start({
      CMS_GIT_HOST: 'github',
      CMS_REPO: 'gaspre/sitio-web',
      CMS_BRANCH: 'produccion',
    })
    origin = site.origin
  })

  test.afterAll(() => site.stop())

  test('opens the editor at /admin/, signing in with GitHub, under its own policy', async ({
    page,
  }) => {
    const response = await page.goto(`${origin}/admin/`)
    const policy = response!.headers()['content-security-policy']!
    expect(policy).toContain("connect-src 'self' blob: https://api.github.com")
    await expect(page.getByRole('button', { name: 'Iniciar sesión con GitHub' })).toBeVisible({
      timeout: 30_000,
    })
    const config = await (await fetch(`${origin}/admin/config.yml`)).text()
    expect(config).toMatch(
      /backend:\n {2}name: github\n {2}repo: gaspre\/sitio-web\n {2}branch: produccion\n/,
    )
    expect(config).toContain('label: Título principal')
  })

  test("keeps the site's policy on its pages: no eval, no inline code but its own hashes", async ({
    page,
  }) => {
    const response = await page.goto(`${origin}/`)
    const policy = response!.headers()['content-security-policy']!
    expect(policy).not.toMatch(/unsafe-eval|unsafe-inline|api\.github\.com/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title)
  })
})
