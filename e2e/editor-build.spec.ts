import { readFile } from 'node:fs/promises'
import { hero } from '../testing/content'
import { ConfiguredBuild } from './configured-build'
import { expect, test } from './fixtures'
import { onOneLayout } from './own-server'

/**
 * A build made with the content editor for a Git host (CMS_GIT_HOST): the editor opens at
 * /admin/ under a policy of its own, with nothing refused (a refusal is a console error, which
 * fails the test), and the site's pages keep their own policy, not weakened.
 */
test.describe('a build with the content editor for GitHub', () => {
  // A ceiling, not a timing: the hook makes a whole production build, with the editor's 5 MB
  // bundle to compress, beside other tests and the journeys.
  onOneLayout('one layout is enough for the wiring', 600_000)

  const site = new ConfiguredBuild('editor')
  let origin = ''

  test.beforeAll(async () => {
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

  test('previews an entry with the site’s own sections and CSS, under the editor’s policy', async ({
    page,
  }) => {
    // Signed in to a repository held in the page (Decap's test backend) instead of GitHub: the
    // editor, its preview and their policy are the build's own.
    await page.route('**/admin/config.yml', async (route) => {
      const config = await (await route.fetch()).text()
      await route.fulfill({
        contentType: 'text/yaml',
        body: config.replace(/^backend:\n(?: {2}.*\n)+/m, 'backend:\n  name: test-repo\n'),
      })
    })
    const files = Object.fromEntries(
      await Promise.all(
        ['inicio.yml', 'sitio.yml', 'formulario.yml', 'tyc.yml'].map(async (name) => [
          name,
          { content: await readFile(`content/${name}`, 'utf8') },
        ]),
      ),
    )
    // The form's pictures, from content/imagenes/, as the repository's files.
    await page.route(/\/admin\/(carrusel|clientes|compartir)\/[\w-]+\.(svg|png)$/, (route) =>
      route.fulfill({
        path: `content/imagenes/${new URL(route.request().url()).pathname.slice(7)}`,
      }),
    )
    await page.addInitScript((content) => {
      ;(window as unknown as { repoFiles: object }).repoFiles = { content }
    }, files)
    await page.goto(`${origin}/admin/#/collections/contenido/entries/inicio`)
    await page.getByRole('button', { name: 'Iniciar sesión' }).click({ timeout: 30_000 })
    const title = page.getByLabel('Título principal', { exact: true })
    await expect(title).toHaveValue(hero.title, { timeout: 30_000 })
    const preview = page.frameLocator('iframe').first()
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(hero.title)
    await title.fill('Tus precios, vistos antes de publicarlos')
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(
      'Tus precios, vistos antes de publicarlos',
    )
    // Styled by the site's stylesheets: the global one, and the sections' from /admin/.
    await expect(preview.getByRole('heading', { level: 1 })).not.toHaveCSS('font-family', /Times/)
    await expect(preview.locator('header').first()).toHaveCSS('position', 'fixed')
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
