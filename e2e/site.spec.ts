import {
  carousel,
  footer as footerCopy,
  hero,
  pillars,
  termsPage as termsCopy,
  videoSection,
} from '../testing/content'
import { expect, gotoHome, test } from './fixtures'

test.describe('home page, as a visitor reads it', () => {
  test('presents the product in the specified order with its claims', async ({ page }) => {
    await gotoHome(page)
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hero.title)
    await expect(page.locator('h1')).toHaveCount(1)

    const order = await page
      .locator('main > [data-island] > section, main > section')
      .evaluateAll((sections) =>
        sections.map((section) => section.id || section.getAttribute('aria-labelledby')),
      )
    expect(order).toEqual([
      'titulo-principal',
      'como-funciona',
      'nuestros-clientes',
      'porque-gaspre',
      'video',
      'solicitar-demo-gratis',
    ])

    const text = await page.locator('body').innerText()
    expect(text).toContain('+2,000')
    expect(text).toContain('+150')
    expect(text).toMatch(
      /único sistema en México, España y Latinoamérica con información de precios en tiempo real/i,
    )
  })

  test('shows twelve named client logos', async ({ page }) => {
    await gotoHome(page)
    const logos = page.locator('#nuestros-clientes li img')
    await expect(logos).toHaveCount(12)
    for (const alt of await logos.evaluateAll((images) =>
      images.map((image) => image.getAttribute('alt')),
    )) {
      expect(alt?.trim()).toBeTruthy()
    }
  })

  test('explains the three numbered pillars', async ({ page }) => {
    await gotoHome(page)
    const items = page.locator('#porque-gaspre ol > li')
    await expect(items).toHaveCount(pillars.items.length)
    for (const [index, pillar] of pillars.items.entries()) {
      await expect(items.nth(index)).toContainText(String(index + 1))
      await expect(items.nth(index)).toContainText(pillar.title)
      await expect(items.nth(index)).toContainText(pillar.text)
    }
  })

  test('embeds the video without contacting the video host before a click', async ({ page }) => {
    const videoHostRequests: string[] = []
    page.on('request', (request) => {
      if (/youtube|ytimg|googlevideo/.test(request.url())) videoHostRequests.push(request.url())
    })
    await gotoHome(page)
    await page.locator('#video').scrollIntoViewIfNeeded()
    await expect(page.locator('#video h2')).toHaveText(videoSection.heading)
    const frame = page.locator('#video iframe')
    await expect(frame).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\//)
    await expect(frame).toHaveAttribute('title', /.+/)
    await expect(
      page.frameLocator('#video iframe').getByRole('link', { name: /Reproducir/ }),
    ).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(videoHostRequests).toEqual([])
  })

  test('links to social networks, e-mail, WhatsApp and the terms from the footer', async ({
    page,
  }) => {
    await gotoHome(page)
    const footer = page.locator('footer')
    const hrefs = await footer
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    expect(hrefs.filter((href) => /linkedin\.com|facebook\.com/.test(href))).toHaveLength(2)
    expect(hrefs.some((href) => href.startsWith('mailto:'))).toBe(true)
    const whatsapp = hrefs.find((href) => href.startsWith('https://wa.me/'))
    expect(new URL(whatsapp!).searchParams.get('text')).toMatch(/^Hola/)
    await expect(footer.getByRole('link', { name: footerCopy.legal.label })).toHaveAttribute(
      'href',
      '/tyc',
    )
  })
})

test.describe('routes', () => {
  test('the terms page carries the 11 sections, the privacy summary and its date', async ({
    page,
  }) => {
    await page.goto('/tyc')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(termsCopy.title)
    const terms = page.locator('#terminos-titulo + ol > li')
    await expect(terms).toHaveCount(11)
    await expect(terms.first()).toContainText('1. Responsable')
    await expect(terms.last()).toContainText('11. Jurisdicción')
    await expect(terms.last()).toContainText(/Ciudad de México/)
    await expect(page.locator('#aviso-de-privacidad-titulo ~ ol > li')).toHaveCount(6)
    await expect(page.locator('time')).toHaveText(termsCopy.lastUpdated.label)
    const text = await page.locator('main').innerText()
    for (const command of ['PAUSA', 'REANUDAR', 'BAJA', 'STOP']) expect(text).toContain(command)
    expect(text).toMatch(/12 meses/)
    expect(text).toMatch(/ARCO/)
  })

  test('the terms table of contents links to every section', async ({ page }) => {
    await page.goto('/tyc')
    const targets = await page
      .getByRole('navigation', { name: termsCopy.tocTitle })
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
    expect(targets).toHaveLength(17)
    for (const target of targets) await expect(page.locator(target!)).toHaveCount(1)
  })

  test('an unknown page ends on the home page', async ({ page }) => {
    const response = await page.goto('/precios/ofertas')
    expect(new URL(page.url()).pathname).toBe('/')
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })

  for (const path of ['/', '/tyc']) {
    test(`${path} is complete without JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      if (path === '/') {
        await expect(page.locator('#solicitar-demo-gratis input[name="user_name"]')).toBeVisible()
        await expect(page.locator('#nuestros-clientes img')).toHaveCount(12)
        await expect(page.getByText(carousel.slides[0]!.title)).toBeVisible()
      } else {
        await expect(page.getByText('PAUSA', { exact: false }).first()).toBeVisible()
      }
      await context.close()
    })
  }
})

test.describe('layout', () => {
  test.skip(({ isMobile }) => isMobile, 'the widths are set explicitly; one project is enough')
  for (const width of [320, 390, 768, 1280]) {
    for (const path of ['/', '/tyc']) {
      test(`${path} never scrolls sideways at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(path)
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
        expect(scrollWidth).toBeLessThanOrEqual(width)
      })
    }
  }
})
