import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page, Request } from '@playwright/test'
import {
  carousel,
  clients,
  demoForm,
  footer,
  hero,
  legalTexts,
  termsPage,
} from '../testing/content'
import { expect, test, waitForHydration } from './fixtures'
import { requestsWhileStarting } from './while-starting'
import { ProjectCopy } from './project-copy'

/**
 * `npm run cms` as a marketer uses it: the editor at /admin/ (Decap CMS through its local
 * proxy) beside the page, a field changed and published, the file written on disk, and the
 * open page showing it without a restart. Runs in a copy of the project, which it edits.
 */
const project = new ProjectCopy('cms-project')
let origin = ''
/** The editor's local proxy, on a port of its own: http://127.0.0.1:<port>/api/v1. */
let proxy = ''
/**
 * One editor for the suite, signed in once, as a marketer keeps it open: its 5 MB bundle and its
 * modules load once, not once per test (seconds each on a loaded machine). Each test opens its
 * entry from the collection's list, which reads the file from disk anew.
 */
let editorContext: BrowserContext
let editor: Page
/** What Decap asks before it leaves an entry with changes: a test leaves what it did not publish. */
const LEAVE_WITH_CHANGES = '¿Estás seguro de que quieres dejar esta página?'

// Ceilings, not timings: the editor's 5 MB bundle and a publish through the proxy take a few
// seconds on a loaded machine, longer than an assertion's default wait.
const EDITOR_READY = { timeout: 60_000 }
const PUBLISHED = { timeout: 30_000 }

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80"><rect width="200" height="80" rx="8" fill="#ff8a3d"/></svg>`

/** What the editor's own policy refused: nothing, or the editor is missing something. */
const refusals: string[] = []

/** Opens the suite's editor and signs in (the local proxy asks for no password). */
async function openEditor(browser: Browser) {
  editorContext = await browser.newContext({ viewport: test.info().project.use.viewport })
  editor = await editorContext.newPage()
  editor.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text())
  })
  // Playwright dismisses any other dialog, as before: none is expected.
  editor.on('dialog', (dialog) =>
    dialog.message() === LEAVE_WITH_CHANGES ? dialog.accept() : dialog.dismiss(),
  )
  await editor.goto(`${origin}/admin/#/collections/contenido`)
  await editor.getByRole('button', { name: 'Iniciar sesión' }).click(EDITOR_READY)
  await expect(entryLink('contenido', 'inicio')).toBeVisible(EDITOR_READY)
}

const entryLink = (collection: string, name: string) =>
  editor.locator(`a[href="#/collections/${collection}/entries/${name}"]`)

/**
 * Opens an entry from its collection's list, as a marketer does: its form is made anew from the
 * file on disk, whatever the test before left unpublished.
 */
async function showEntry(name: string, collection = 'contenido') {
  await closeNotices()
  await editor.goto(`${origin}/admin/#/collections/${collection}`)
  await entryLink(collection, name).click(EDITOR_READY)
}

/**
 * Closes the notices (Decap's toasts) that a test before left, as their close button does: a test
 * that expects «No se publicó nada» or «Cambios publicados» must see its own.
 */
async function closeNotices() {
  const notices = editor.locator('.notif__container .Toastify__toast')
  await notices
    .getByRole('button', { name: 'close' })
    .evaluateAll((buttons) => buttons.forEach((button) => (button as HTMLElement).click()))
  await expect(notices).toHaveCount(0, PUBLISHED)
}

/** The home page's entry in the editor, as the file on disk holds it. */
async function openHomeEntry() {
  await showEntry('inicio')
  await expect(editor.getByLabel('Título principal', { exact: true })).toHaveValue(
    hero.title,
    EDITOR_READY,
  )
}

/** The entry of `name` in the editor, once its form shows `label`. */
async function openEntry(name: string, label: string, collection = 'contenido') {
  await showEntry(name, collection)
  await expect(editor.getByLabel(label, { exact: true }).first()).toBeVisible(EDITOR_READY)
}

/** The bodies of the editor's requests that match `pattern`, from now until `stop()`. */
function watchRequests(pattern: RegExp, what: (request: Request) => string) {
  const seen: string[] = []
  const listener = (request: Request) => {
    if (pattern.test(request.postData() ?? '')) seen.push(what(request))
  }
  editor.on('request', listener)
  return { seen, stop: () => void editor.off('request', listener) }
}

/**
 * Tries to publish and expects the editor to refuse: the notice, the build's sentence next to
 * the field, no write asked of the proxy, the file on disk unchanged byte for byte.
 */
async function expectPublishRefused(file: string, before: string, sentence: string) {
  const writes = watchRequests(/persist/, (request) => request.postData()!)
  await editor.getByRole('button', { name: 'Publicar', exact: true }).click()
  await editor.getByRole('menuitem', { name: 'Publicar ahora' }).click()
  await expect(editor.getByText('No se publicó nada', { exact: false })).toBeVisible(PUBLISHED)
  await expect(editor.getByText(sentence, { exact: true })).toBeVisible()
  writes.stop()
  expect(writes.seen).toEqual([])
  expect(await project.read(file)).toBe(before)
}

async function publish() {
  await editor.getByRole('button', { name: 'Publicar', exact: true }).click()
  await editor.getByRole('menuitem', { name: 'Publicar ahora' }).click()
  await expect(editor.getByText('Cambios publicados', { exact: true })).toBeVisible(PUBLISHED)
}

test.describe('npm run cms', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 })
  test.beforeAll(async ({ browser }) => {
    test.skip(test.info().project.name !== 'desktop', 'one editor is enough')
    await project.create()
    // Free ports, both: the suite may run beside a developer's own npm run cms.
    origin = await project.start('editor/start.mjs', {
      PORT: '0',
      CMS_PROXY_PORT: '0',
      DATA_DIR: join(project.root, '.data'),
    })
    proxy = await project.printed(/Proxy del editor: (http:\/\/\S+)/)
    await openEditor(browser)
  })
  test.afterAll(async () => {
    await editorContext?.close()
    await project.stop()
  })
  test.afterEach(() => {
    expect(refusals, 'requests the editor’s policy refused').toEqual([])
  })

  test('answers the site and the editor proxy asked while it starts, once it is ready', async () => {
    const answers = await requestsWhileStarting({
      root: project.root,
      script: 'editor/start.mjs',
      env: { DATA_DIR: join(project.root, '.data-while-starting') },
      portVariables: ['PORT', 'CMS_PROXY_PORT'],
      path: '/',
      readyLine: /^Proxy del editor: /m,
    })
    expect(answers.readyWhenSent, 'the requests went out before the server was ready').toBe(false)
    // The same answers as once started: the page, and the proxy's refusal of a stranger.
    expect(answers.whileStarting).toEqual(answers.onceStarted)
    expect(answers.whileStarting[0]).toBe(200)
  })

  test('publishes a new headline to content/inicio.yml, and the open page shows it', async ({
    page,
  }) => {
    await page.goto(`${origin}/`)
    await waitForHydration(page)
    const before = await project.read('content/inicio.yml')
    const writes = watchRequests(/"persistEntry"/, (request) => request.url())
    await openHomeEntry()
    const headline = 'Inteligencia en precios para tu estación de servicio'
    await editor.getByLabel('Título principal', { exact: true }).fill(headline)
    await publish()
    writes.stop()
    // Written through the proxy on its own port.
    expect(proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    expect(proxy).not.toContain(new URL(origin).host)
    expect(writes.seen).toEqual([proxy])

    // Only the edited line changes: every comment and the rest of the file stay as written.
    await expect.poll(() => project.read('content/inicio.yml'), PUBLISHED).not.toBe(before)
    const after = await project.read('content/inicio.yml')
    expect(after).toBe(before.replace(`  title: ${hero.title}\n`, `  title: ${headline}\n`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(headline, PUBLISHED)
    await project.save('content/inicio.yml', before)
  })

  test('adds a client with a logo uploaded through the editor', async ({ page }) => {
    await page.goto(`${origin}/`)
    const before = await project.read('content/inicio.yml')
    await openHomeEntry()
    await editor.getByRole('button', { name: 'Añadir cliente' }).click()
    const names = editor.getByLabel('Nombre del cliente, para lectores de pantalla', {
      exact: true,
    })
    await expect(names).toHaveCount(clients.logos.length + 1, PUBLISHED)
    await names.last().fill('Gasolinera Nueva del Norte')
    await editor.getByRole('button', { name: 'Elige una imagen' }).last().click()
    await editor.locator('input[type="file"]').setInputFiles({
      name: 'gasolinera-nueva.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(LOGO),
    })
    await editor.getByRole('button', { name: 'Confirmar selección' }).click()
    await publish()

    await expect.poll(() => project.read('content/inicio.yml'), PUBLISHED).not.toBe(before)
    expect(existsSync(join(project.root, 'content/imagenes/clientes/gasolinera-nueva.svg'))).toBe(
      true,
    )
    expect(await project.read('content/inicio.yml')).toContain(
      '    - name: Gasolinera Nueva del Norte\n      logo: clientes/gasolinera-nueva.svg\n',
    )
    const logo = page.getByRole('img', { name: 'Gasolinera Nueva del Norte' })
    await expect(logo).toBeVisible(PUBLISHED)
    await expect(logo).toHaveAttribute('width', '200')
    await expect(logo).toHaveAttribute('height', '80')
  })

  // One field set to what the build refuses: the editor says the build's own sentence.
  const REFUSED_FIELDS = [
    {
      what: 'a link the build refuses, next to the field',
      entry: 'inicio',
      label: 'Botón principal: dirección',
      value: 'www.example.com',
      sentence:
        '«Botón principal: dirección» no es un enlace permitido: usa una dirección https://, mailto:, tel:, una página del sitio (/tyc) o una sección de la página de inicio (#porque-gaspre, #nuestros-clientes, #solicitar-demo-gratis…)',
    },
    {
      what: 'an empty required text',
      entry: 'inicio',
      label: 'Texto sobre el título',
      value: '',
      sentence: '«Texto sobre el título» está vacío: escribe el texto',
    },
    {
      what: 'a WhatsApp number not in international form',
      entry: 'sitio',
      label: 'Número de WhatsApp',
      value: '+52 55 1234 5678',
      sentence:
        "«Número de WhatsApp» va en formato internacional: solo dígitos, con el código de país y sin «+» ni espacios, entre comillas, por ejemplo '5215512345678'",
    },
  ]
  for (const { what, entry, label, value, sentence } of REFUSED_FIELDS) {
    test(`refuses ${what}`, async () => {
      const file = `content/${entry}.yml`
      const before = await project.read(file)
      await openEntry(entry, label)
      await editor.getByLabel(label, { exact: true }).fill(value)
      await expectPublishRefused(file, before, sentence)
    })
  }

  test('refuses a headline too long, with its count and its limit, counted as it is typed', async () => {
    const before = await project.read('content/inicio.yml')
    await openHomeEntry()
    const title = editor.getByLabel('Título principal', { exact: true })
    const tooLong = `${hero.title} ${'y mucho más '.repeat(4)}`.trim()
    await title.fill(tooLong)
    await expect(
      title.locator('xpath=following-sibling::p[@data-counter]'),
      'the live counter',
    ).toHaveText(`${tooLong.length} de 80 caracteres: sobran ${tooLong.length - 80}`)
    await expectPublishRefused(
      'content/inicio.yml',
      before,
      `«Título principal» tiene ${tooLong.length} caracteres y caben 80: acórtalo`,
    )
  })

  test('refuses a list with fewer items than the design needs', async () => {
    const before = await project.read('content/inicio.yml')
    await openHomeEntry()
    await editor
      .getByLabel('lista')
      .filter({ has: editor.getByText('Cifras', { exact: true }) })
      .getByRole('button', { name: 'Quitar' })
      .first()
      .click()
    await expectPublishRefused(
      'content/inicio.yml',
      before,
      '«Cifras» tiene 2 y deben ser exactamente 3',
    )
  })

  test('refuses a file it cannot read as the schema says, telling why in Spanish', async () => {
    const original = await project.edit('content/inicio.yml', (text) =>
      text.replace(`  title: ${hero.title}\n`, `  title: GASPRE: ${hero.title}\n`),
    )
    const line = original.split('\n').indexOf(`  title: ${hero.title}`) + 1
    const before = await project.read('content/inicio.yml')
    await showEntry('inicio')
    const problem = editor.getByRole('alert').filter({ hasText: 'No puedes editar este archivo' })
    await expect(problem).toContainText(
      `content/inicio.yml, línea ${line}: el archivo no se puede leer aquí: el texto lleva «: » y sin comillas se lee como otro campo`,
      EDITOR_READY,
    )
    await expect(editor.getByLabel('Título principal', { exact: true })).toHaveValue('')
    const shown = await editor.evaluate(() =>
      [
        document.body.innerText,
        ...[...document.querySelectorAll('input, textarea')].map(
          (field) => (field as HTMLInputElement).value,
        ),
      ].join('\n'),
    )
    expect(shown).not.toContain('Map {')
    // Filled in again by hand, it is still not published: the file must be fixed first.
    await editor.getByLabel('Título principal', { exact: true }).fill(hero.title)
    const writes = watchRequests(/persist/, (request) => request.postData()!)
    await editor.getByRole('button', { name: 'Publicar', exact: true }).click()
    await editor.getByRole('menuitem', { name: 'Publicar ahora' }).click()
    await expect(editor.getByText('No se publicó nada', { exact: false })).toBeVisible(PUBLISHED)
    writes.stop()
    expect(writes.seen).toEqual([])
    expect(await project.read('content/inicio.yml')).toBe(before)
    await project.save('content/inicio.yml', original)
  })

  test('shows each picture in the form and in «Medios»', async () => {
    await openHomeEntry()
    /** The sizes of the pictures the form shows, as files: Decap's blank stand-in is 46 bytes. */
    const pictureSizes = () =>
      editor.evaluate(() =>
        Promise.all(
          [...document.querySelectorAll<HTMLImageElement>('[aria-label="imagen"] img')].map(
            async (image) => (await (await fetch(image.src)).blob()).size,
          ),
        ),
      )
    // The picture to share, 4 slides and the logos (one more if a test above added a client).
    const pictures = 1 + 4 + clients.logos.length
    await expect
      .poll(async () => {
        const sizes = await pictureSizes()
        return sizes.length >= pictures && sizes.every((size) => size > 46)
      }, PUBLISHED)
      .toBe(true)
    const logo = editor.locator('[aria-label="imagen"] img').nth(5)
    await expect(logo).toHaveJSProperty('complete', true)
    expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(200)

    // «Medios» lists the pictures of every folder, each shown.
    await editor.goto(`${origin}/admin/#/collections/contenido`)
    await editor.getByRole('button', { name: 'Medios' }).click(EDITOR_READY)
    for (const file of ['competencia.svg', 'carburantes-ibericos.svg'])
      await expect(editor.getByText(file, { exact: true })).toBeVisible(PUBLISHED)
    await expect(editor.getByRole('dialog').locator('img').first()).toHaveJSProperty(
      'complete',
      true,
    )
    expect(
      await editor
        .getByRole('dialog')
        .locator('img')
        .first()
        .evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0)
    // Closed again, so that the next test finds the collection's list.
    await editor.keyboard.press('Escape')
    await expect(editor.getByRole('dialog')).toBeHidden()
  })

  test('previews an edited headline with the site’s own sections and CSS before publishing', async () => {
    const before = await project.read('content/inicio.yml')
    await openHomeEntry()
    const headline = 'Precios que ves antes de publicarlos'
    await editor.getByLabel('Título principal', { exact: true }).fill(headline)
    const preview = editor.frameLocator('iframe').first()
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(headline, PUBLISHED)
    // Styled by the site's own stylesheets, not the browser's.
    await expect(preview.getByRole('heading', { level: 1 })).not.toHaveCSS('font-family', /Times/)
    await expect(preview.getByRole('heading', { level: 2 }).first()).toBeVisible()
    // At a phone's width and at a desktop's, where the site's own breakpoints apply.
    const width = () => preview.locator('html').evaluate(() => window.innerWidth)
    await preview.getByRole('button', { name: 'Teléfono (390 px)' }).click()
    await expect.poll(width).toBe(390)
    await preview.getByRole('button', { name: 'Escritorio (1280 px)' }).click()
    await expect.poll(width).toBe(1280)
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(headline)
    expect(await project.read('content/inicio.yml')).toBe(before)
  })

  test('previews the carousel, the demo form, the footer and /tyc with what is typed', async () => {
    const files = ['inicio.yml', 'formulario.yml', 'sitio.yml', 'tyc.yml'].map(
      (name) => `content/${name}`,
    )
    const before = await Promise.all(files.map((file) => project.read(file)))
    // One after another, each left unpublished for the next.
    const open = async (name: string, label: string) => {
      await openEntry(name, label)
      return { editor, preview: editor.frameLocator('iframe').first() }
    }

    // The carousel: its heading and a slide's title, in the site's own carousel.
    const home = await open('inicio', 'Título de la sección')
    const heading = 'Así cuida GASPRE tus precios, día a día'
    await home.editor.getByLabel('Título de la sección', { exact: true }).first().fill(heading)
    // The slides are folded, each known by its title: the second one unfolded.
    const slideList = home.editor
      .getByLabel('lista')
      .filter({ has: home.editor.getByText('Diapositivas', { exact: true }) })
    await expect(slideList.getByText(carousel.slides[1]!.title, { exact: true })).toBeVisible()
    await slideList.getByRole('button', { name: 'Desplegar o plegar' }).nth(1).click()
    const slideTitle = home.editor.getByLabel('Título', { exact: true }).nth(1)
    await expect(slideTitle).toHaveValue(carousel.slides[1]!.title)
    await slideTitle.fill('Alertas de precio en tu WhatsApp')
    await expect(home.preview.getByRole('heading', { level: 2, name: heading })).toBeVisible(
      PUBLISHED,
    )
    const slides = home.preview.locator('[aria-roledescription="carousel"]')
    await expect(slides.getByRole('heading', { level: 3 }).nth(1)).toHaveText(
      'Alertas de precio en tu WhatsApp',
    )

    // The demo form: a field's label and its hint.
    const form = await open('formulario', 'Etiqueta: Nombre')
    await form.editor.getByLabel('Etiqueta: Nombre', { exact: true }).fill('Tu nombre y apellidos*')
    await form.editor
      .getByLabel('Ayuda: Teléfono', { exact: true })
      .fill('Con la lada de tu ciudad.')
    await expect(form.preview.getByLabel('Tu nombre y apellidos*').first()).toBeVisible(PUBLISHED)
    await expect(form.preview.getByText('Con la lada de tu ciudad.').first()).toBeVisible()
    await expect(form.preview.getByRole('button', { name: demoForm.submit })).toBeVisible()

    // The footer, in the site's own footer.
    const site = await open('sitio', 'Frase bajo el logotipo')
    const blurb = 'Precios de combustible en tiempo real para tus estaciones.'
    await site.editor.getByLabel('Frase bajo el logotipo', { exact: true }).fill(blurb)
    await expect(site.preview.getByRole('contentinfo')).toContainText(blurb, PUBLISHED)
    await expect(site.preview.getByRole('contentinfo')).not.toContainText(footer.blurb)

    // The /tyc page: its title over the legal texts as the build renders them.
    const terms = await open('tyc', 'Título de la página')
    await terms.editor
      .getByLabel('Título de la página', { exact: true })
      .fill('Términos y privacidad')
    await expect(terms.preview.getByRole('heading', { level: 1 })).toHaveText(
      'Términos y privacidad',
      PUBLISHED,
    )
    await expect(
      terms.preview.locator(`[id="${legalTexts.terms.sections[0]!.id}"] h3`),
    ).toContainText(legalTexts.terms.sections[0]!.title)
    expect(termsPage.title).not.toBe('Términos y privacidad')

    // Nothing is written before a publish.
    expect(await Promise.all(files.map((file) => project.read(file)))).toEqual(before)
  })

  test('previews a legal text’s Markdown as the build renders it', async () => {
    const before = await project.read('content/terminos.md')
    await openEntry('terminos', 'Texto', 'legal')
    const body = editor.getByLabel('Texto', { exact: true })
    const paragraph =
      'Este párrafo es nuevo: lo ves aquí antes de publicarlo, con el estilo de la página.'
    await body.fill(`${await body.inputValue()}\n\n${paragraph}\n`)
    const preview = editor.frameLocator('iframe').first()
    const last = legalTexts.terms.sections.at(-1)!
    await expect(preview.locator(`[id="${last.id}"] p`).last()).toHaveText(paragraph, PUBLISHED)
    await expect(preview.locator(`[id="${last.id}"] p`).last()).not.toHaveCSS(
      'font-family',
      /Times/,
    )
    expect(await project.read('content/terminos.md')).toBe(before)
  })

  test('refuses Markdown the build refuses, with its sentence, in normal case', async () => {
    const before = await project.read('content/terminos.md')
    await openEntry('terminos', 'Texto', 'legal')
    const body = editor.getByLabel('Texto', { exact: true })
    const text = await body.inputValue()
    // A heading of level 1 on the text's third line: the build takes only «## Título».
    await body.fill(`Una introducción.\n\n# Un título de más\n\n${text.trim()}\n`)
    const sentence =
      '«Texto», línea 3: cada sección empieza con «## Título» (dos almohadillas); «# » no se usa aquí: el título del documento va arriba, en «title:»'
    await expectPublishRefused('content/terminos.md', before, sentence)
    // Shown as written: a sentence, not Decap's capitals.
    await expect(editor.getByText(sentence, { exact: true })).toHaveCSS('text-transform', 'none')
    // The preview says so too, and shows the text as published.
    const preview = editor.frameLocator('iframe').first()
    await expect(preview.getByRole('alert')).toContainText(sentence)
    await expect(preview.locator(`[id="${legalTexts.terms.sections[0]!.id}"] h3`)).toContainText(
      legalTexts.terms.sections[0]!.title,
    )
  })

  test('counts each of «Columnas» against its own limit', async () => {
    const before = await project.read('content/inicio.yml')
    await openEntry('inicio', 'Columna 1')
    // The first column holds 12 characters; each of the other three, 9.
    const first = editor.getByLabel('Columna de estaciones', { exact: true })
    await first.fill('Gasolinera')
    await expect(first.locator('xpath=following-sibling::p[@data-counter]')).toHaveText(
      '10 de 12 caracteres',
    )
    const second = editor.getByLabel('Columna 1', { exact: true })
    await second.fill('Magna 87 E')
    await expect(second.locator('xpath=following-sibling::p[@data-counter]')).toHaveText(
      '10 de 9 caracteres: sobran 1',
    )
    await expectPublishRefused(
      'content/inicio.yml',
      before,
      '«Columna 1» tiene 10 caracteres y caben 9: acórtalo',
    )
  })
})
