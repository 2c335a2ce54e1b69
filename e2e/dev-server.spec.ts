import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { demoForm } from '../src/content/demo-form'
import { clients, hero } from '../src/content/home'
import { terms } from '../src/content/terms'
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
 */
const DATA_DIR = 'test-results/dev-outbox'
let server: ChildProcess
let origin = ''

async function startDevServer(): Promise<string> {
  await rm(DATA_DIR, { recursive: true, force: true })
  server = spawn('node', ['scripts/dev.mjs'], {
    env: { ...process.env, PORT: '0', DATA_DIR },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let output = ''
    server.once('exit', (code) => reject(new Error(`dev server exited (${code}): ${output}`)))
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /Development server on (http:\/\/[^/\s]+)\//.exec(output)
      if (listening) resolve(listening[1]!)
    })
  })
}

/** Edits a source file for one test; the original is always put back. */
async function whileEdited(
  file: string,
  edit: (text: string) => string,
  body: () => Promise<void>,
) {
  const original = await readFile(file, 'utf8')
  const edited = edit(original)
  expect(edited, `the edit changes ${file}`).not.toBe(original)
  // Saved as editors do, in one step: a watcher never sees the file half written.
  const save = async (text: string) => {
    await writeFile(`${file}.saving`, text)
    await rename(`${file}.saving`, file)
  }
  await save(edited)
  try {
    await body()
  } finally {
    await save(original)
  }
}

test.describe('npm run dev', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  test.skip(({ isMobile }) => isMobile, 'one development server is enough')

  test.beforeAll(async () => {
    origin = await startDevServer()
  })
  test.afterAll(() => {
    server.kill('SIGTERM')
  })

  test('renders both pages with their headlines and hydrates the islands', async ({ page }) => {
    await page.goto(`${origin}/`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title)
    await waitForHydration(page)
    await page.goto(`${origin}/tyc`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(terms.title)
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

  test('shows an edited content string without a restart', async ({ page }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const edited = `${clients.heading} (editado en vivo)`
    await whileEdited(
      'src/content/home.ts',
      (text) => text.replace(`'${clients.heading}'`, `'${edited}'`),
      async () => {
        // A static section has nothing to hot-swap: the page reloads, rendered again.
        await expect(page.locator('#clientes-titulo')).toHaveText(edited, { timeout: 20_000 })
      },
    )
    await expect(page.locator('#clientes-titulo')).toHaveText(clients.heading, { timeout: 20_000 })
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
    await whileEdited(
      'src/sections/demo-carousel.module.css',
      (text) => `${text}\n.title {\n  outline: 3px solid rgb(1 2 3);\n}\n`,
      async () => {
        await expect.poll(outlineColor, { timeout: 20_000 }).toBe('rgb(1, 2, 3)')
      },
    )
    await expect.poll(outlineColor, { timeout: 20_000 }).not.toBe('rgb(1, 2, 3)')
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })

  test('hot-swaps an edited island component without reloading the page', async ({ page }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    await page.evaluate(() => Object.assign(window, { loadedBeforeTheEdit: true }))
    const headline = page.locator('#como-funciona')
    await whileEdited(
      'src/sections/demo-carousel.tsx',
      (text) => text.replace('id="como-funciona"', 'id="como-funciona" data-edited="true"'),
      async () => {
        await expect(headline).toHaveAttribute('data-edited', 'true', { timeout: 20_000 })
      },
    )
    await expect(headline).not.toHaveAttribute('data-edited', 'true', { timeout: 20_000 })
    expect(await page.evaluate(() => 'loadedBeforeTheEdit' in window)).toBe(true)
  })
})
