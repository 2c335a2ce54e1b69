import { spawn, type ChildProcess } from 'node:child_process'
import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { clients, demoForm, hero, termsPage } from '../testing/content'
import {
  alertDialog,
  demoRequest,
  expect,
  fillDemoForm,
  submitButton,
  test,
  uniqueEmail,
  waitForHydration,
} from './fixtures'

/**
 * `npm run dev` as a developer uses it: both pages rendered by the dev server, the form sending
 * to the local stand-in, and an edited file showing in the open page without a restart.
 *
 * The server runs in a fresh copy of the project under build/ (ignored by git and every tool),
 * and the tests edit the copy: a run stopped halfway leaves no tracked file edited. The copy
 * finds node_modules in the project above it, as Node and Vite look upward for it. Not under
 * test-results/: Vite's file watcher ignores that folder, so an edit there would never show.
 */
const COPY = resolve('build/dev-server-project')
const COPIED = [
  ...['index.html', 'tyc.html', 'public', 'src', 'content', 'pipeline', 'server', 'scripts'],
  ...['vite.config.ts', 'tsconfig.json', 'tsconfig.base.json'],
]
const DATA_DIR = join(COPY, '.data')
let server: ChildProcess | undefined
let origin = ''

async function copyProject(): Promise<void> {
  await rm(COPY, { recursive: true, force: true })
  for (const entry of COPIED) await cp(entry, join(COPY, entry), { recursive: true })
}

async function startDevServer(): Promise<string> {
  const child = spawn('node', [join(COPY, 'scripts/dev.mjs')], {
    cwd: COPY,
    env: { ...process.env, PORT: '0', DATA_DIR },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  server = child
  return new Promise((resolveOrigin, reject) => {
    let output = ''
    child.once('exit', (code) => reject(new Error(`dev server exited (${code}): ${output}`)))
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /Development server on (http:\/\/[^/\s]+)\//.exec(output)
      if (listening) resolveOrigin(listening[1]!)
    })
  })
}

/** Saves a file of the copy as editors do, in one step: a watcher never sees it half written. */
async function save(file: string, text: string): Promise<void> {
  const path = join(COPY, file)
  await writeFile(`${path}.saving`, text)
  await rename(`${path}.saving`, path)
}

/** Edits a file of the copy; returns its text before the edit. */
async function edit(file: string, change: (text: string) => string): Promise<string> {
  const original = await readFile(join(COPY, file), 'utf8')
  const edited = change(original)
  expect(edited, `the edit changes ${file}`).not.toBe(original)
  await save(file, edited)
  return original
}

test.describe('npm run dev', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  test.beforeAll(async () => {
    // Skipped here, not per test, so only one worker copies the project and starts a server.
    test.skip(test.info().project.name !== 'desktop', 'one development server is enough')
    await copyProject()
    origin = await startDevServer()
  })
  test.afterAll(() => {
    server?.kill('SIGTERM')
  })

  test('renders both pages with their headlines and hydrates the islands', async ({ page }) => {
    await page.goto(`${origin}/`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title)
    await waitForHydration(page)
    await page.goto(`${origin}/tyc`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(termsPage.title)
    await waitForHydration(page)
  })

  test('sends the demo form to the local stand-in', async ({ page }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const email = uniqueEmail('desarrollo')
    await fillDemoForm(page, demoRequest(email))
    await submitButton(page).click()
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    const outbox = await readFile(join(DATA_DIR, 'outbox.jsonl'), 'utf8')
    expect(outbox).toContain(email)
  })

  test('shows an edited content file without a restart', async ({ page }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const edited = `${clients.heading} (editado en vivo)`
    const original = await edit('content/inicio.yml', (text) =>
      text.replace(`  heading: ${clients.heading}\n`, `  heading: ${edited}\n`),
    )
    // A static section has nothing to hot-swap: the page reloads, rendered again.
    await expect(page.locator('#clientes-titulo')).toHaveText(edited, { timeout: 20_000 })
    await save('content/inicio.yml', original)
    await expect(page.locator('#clientes-titulo')).toHaveText(clients.heading, { timeout: 20_000 })
  })

  test('shows a broken content edit in an overlay that names the file, line and field, and recovers once it is fixed', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const tooLong = `${hero.title}, ${hero.title}`
    const original = await edit('content/inicio.yml', (text) =>
      text.replace(`  title: ${hero.title}\n`, `  title: ${tooLong}\n`),
    )
    const line = original.split('\n').indexOf(`  title: ${hero.title}`) + 1
    const overlay = page.locator('vite-error-overlay .message-body')
    await expect(overlay).toContainText(
      `content/inicio.yml, línea ${line}, hero.title: «Título principal» tiene ${tooLong.length} caracteres y caben 80`,
      { timeout: 20_000 },
    )
    // The page that carries the overlay is the server's answer to a page it could not render.
    expect(consoleErrors).toEqual([expect.stringContaining('status of 500')])
    consoleErrors.length = 0
    await save('content/inicio.yml', original)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title, {
      timeout: 20_000,
    })
  })

  test('hot-swaps an edited CSS module of an island without reloading the page', async ({
    page,
  }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    await page.evaluate(() => Object.assign(window, { loadedBeforeTheEdit: true }))
    // The carousel is an island (the hero is static HTML, whose edits reload the page).
    const slideTitle = page.locator('section:has(#como-funciona) h3').first()
    const outlineColor = () =>
      slideTitle.evaluate((element) => getComputedStyle(element).outlineColor)
    const original = await edit(
      'src/sections/demo-carousel.module.css',
      (text) => `${text}\n.title {\n  outline: 3px solid rgb(1 2 3);\n}\n`,
    )
    await expect.poll(outlineColor, { timeout: 20_000 }).toBe('rgb(1, 2, 3)')
    await save('src/sections/demo-carousel.module.css', original)
    await expect.poll(outlineColor, { timeout: 20_000 }).not.toBe('rgb(1, 2, 3)')
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })

  test('hot-swaps an edited island component without reloading the page', async ({ page }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    await page.evaluate(() => Object.assign(window, { loadedBeforeTheEdit: true }))
    const headline = page.locator('#como-funciona')
    const original = await edit('src/sections/demo-carousel.tsx', (text) =>
      text.replace('id="como-funciona"', 'id="como-funciona" data-edited="true"'),
    )
    await expect(headline).toHaveAttribute('data-edited', 'true', { timeout: 20_000 })
    await save('src/sections/demo-carousel.tsx', original)
    await expect(headline).not.toHaveAttribute('data-edited', 'true', { timeout: 20_000 })
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })
})
