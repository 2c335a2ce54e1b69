import type { Page } from '@playwright/test'
import { join } from 'node:path'
import { clients, demoForm, hero, termsPage } from '../testing/content'
import {
  alertDialog,
  expect,
  gotoHome,
  sendDemoRequest,
  test,
  uniqueEmail,
  waitForHydration,
} from './fixtures'
import { ProjectCopy } from './project-copy'
import { requestsWhileStarting } from './while-starting'
import { storedRequests } from '../testing/server/store'

/**
 * `npm run dev` as a developer uses it: both pages rendered by the dev server, the form sending
 * to its intake, and an edited file showing in the open page without a restart. The
 * server runs in a copy of the project, which the tests edit.
 */
const project = new ProjectCopy('dev-server-project')
const DATA_DIR = join(project.root, '.data')
let origin = ''

/** Writes another headline into content/inicio.yml: the file as it was, and the headline's line. */
async function editTitle(title: string): Promise<{ original: string; line: number }> {
  const original = await project.edit('content/inicio.yml', (text) =>
    text.replace(`  title: ${hero.title}\n`, `  title: ${title}\n`),
  )
  return { original, line: original.split('\n').indexOf(`  title: ${hero.title}`) + 1 }
}

/**
 * The page that carried the overlay was the server's answer to a page it could not render (one
 * 500 in the console); once the file is saved as it was, the page shows its headline again.
 */
async function mendedAfterOverlay(page: Page, consoleErrors: string[], original: string) {
  expect(consoleErrors).toEqual([expect.stringContaining('status of 500')])
  consoleErrors.length = 0
  await project.save('content/inicio.yml', original)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title, {
    timeout: 20_000,
  })
}

test.describe('npm run dev', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  test.beforeAll(async () => {
    // Skipped here, not per test, so only one worker copies the project and starts a server.
    test.skip(test.info().project.name !== 'desktop', 'one development server is enough')
    await project.create()
    origin = await project.start('scripts/dev.mjs', { PORT: '0', DATA_DIR })
  })
  test.afterAll(() => project.stop())

  test('renders both pages with their headlines and hydrates the islands', async ({ page }) => {
    await page.goto(`${origin}/`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title)
    await waitForHydration(page)
    await page.goto(`${origin}/tyc`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(termsPage.title)
    await waitForHydration(page)
  })

  test('sends the demo form to the store of npm start, in DATA_DIR', async ({ page }) => {
    await gotoHome(page, `${origin}/`)
    const email = uniqueEmail('desarrollo')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    const stored = await storedRequests({ dataDir: DATA_DIR })
    expect(stored.filter((request) => request.params.user_email === email)).toHaveLength(1)
    // Where it said, on start, that the requests go.
    expect(await project.printed(/stored in (\S+leads\.sqlite)/)).toBe(
      join(DATA_DIR, 'leads.sqlite'),
    )
  })

  test('answers a page asked for while it starts, once it is ready', async () => {
    const answers = await requestsWhileStarting({
      root: project.root,
      script: 'scripts/dev.mjs',
      env: { DATA_DIR: join(project.root, '.data-while-starting') },
      portVariables: ['PORT'],
      path: '/',
      readyLine: /^Own-server mode: /m,
    })
    expect(answers.readyWhenSent, 'the request went out before the server was ready').toBe(false)
    expect(answers.whileStarting).toEqual([200])
    expect(answers.onceStarted).toEqual([200])
  })

  test('shows an edited content file without a restart', async ({ page }) => {
    await gotoHome(page, `${origin}/`)
    const edited = `${clients.heading} (editado en vivo)`
    const original = await project.edit('content/inicio.yml', (text) =>
      text.replace(`  heading: ${clients.heading}\n`, `  heading: ${edited}\n`),
    )
    // A static section has nothing to hot-swap: the page reloads, rendered again.
    await expect(page.locator('#clientes-titulo')).toHaveText(edited, { timeout: 20_000 })
    await project.save('content/inicio.yml', original)
    await expect(page.locator('#clientes-titulo')).toHaveText(clients.heading, { timeout: 20_000 })
  })

  test('shows a broken content edit in an overlay that names the file, line and field, and recovers once it is fixed', async ({
    page,
    consoleErrors,
  }) => {
    await gotoHome(page, `${origin}/`)
    const tooLong = `${hero.title}, ${hero.title}`
    const { original, line } = await editTitle(tooLong)
    const overlay = page.locator('vite-error-overlay .message-body')
    await expect(overlay).toContainText(
      `content/inicio.yml, línea ${line}, hero.title: «Título principal» tiene ${tooLong.length} caracteres y caben 80`,
      { timeout: 20_000 },
    )
    // What to do next, in Spanish, instead of Vite's tip about its own configuration.
    await expect(page.locator('vite-error-overlay')).toContainText(
      'Corrige el archivo y guárdalo: esta página se recarga sola.',
    )
    await expect(page.locator('vite-error-overlay')).not.toContainText('vite.config')
    await mendedAfterOverlay(page, consoleErrors, original)
  })

  test('tells a YAML mistake in Spanish, with its line and what to do', async ({
    page,
    consoleErrors,
  }) => {
    await gotoHome(page, `${origin}/`)
    const { original, line } = await editTitle(`GASPRE: ${hero.title}`)
    const overlay = page.locator('vite-error-overlay .message-body')
    await expect(overlay).toContainText(
      `content/inicio.yml, línea ${line}: el archivo no se puede leer aquí: el texto lleva «: » y sin comillas se lee como otro campo; ponlo entre comillas simples`,
      { timeout: 20_000 },
    )
    await expect(overlay).not.toContainText('mapping')
    await mendedAfterOverlay(page, consoleErrors, original)
  })

  // The demo form's fields are an island's alone (src/components/field.tsx, only the form uses
  // them): their CSS module is swapped in place. (The form's own demo-form.module.css is shared
  // with the static demo section, whose class names its edit changes: that one reloads.)
  test('hot-swaps an edited CSS module of an island without reloading the page', async ({
    page,
  }) => {
    await gotoHome(page, `${origin}/`)
    await page.evaluate(() => Object.assign(window, { loadedBeforeTheEdit: true }))
    const label = page.locator('#solicitar-demo-gratis form label').first()
    const outlineColor = () => label.evaluate((element) => getComputedStyle(element).outlineColor)
    const original = await project.edit(
      'src/components/field.module.css',
      (text) => `${text}\n.label {\n  outline: 3px solid rgb(1 2 3);\n}\n`,
    )
    await expect.poll(outlineColor, { timeout: 20_000 }).toBe('rgb(1, 2, 3)')
    await project.saveUntil('src/components/field.module.css', original, () =>
      expect.poll(outlineColor, { timeout: 5_000 }).not.toBe('rgb(1, 2, 3)'),
    )
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })

  test('hot-swaps an edited island component without reloading the page', async ({ page }) => {
    await gotoHome(page, `${origin}/`)
    await page.evaluate(() => Object.assign(window, { loadedBeforeTheEdit: true }))
    // The hero's calls to action are an island (the rest of the hero is static HTML).
    const actions = page.locator('div:has(> [data-cta="hero"])')
    const original = await project.edit('src/sections/hero-actions.tsx', (text) =>
      text.replace(
        '<div className={styles.actions}>',
        '<div className={styles.actions} data-edited="true">',
      ),
    )
    await expect(actions).toHaveAttribute('data-edited', 'true', { timeout: 20_000 })
    await project.saveUntil('src/sections/hero-actions.tsx', original, () =>
      expect(actions).not.toHaveAttribute('data-edited', 'true', { timeout: 5_000 }),
    )
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })
})
