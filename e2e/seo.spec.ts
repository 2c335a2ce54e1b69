import { expect, test } from './fixtures'

test.describe('what search engines and link previews read', () => {
  test.skip(({ isMobile }) => isMobile, 'the head does not depend on the viewport')

  for (const { path, title } of [
    { path: '/', title: /^GASPRE \| Sistema de inteligencia en precios/ },
    { path: '/tyc', title: /^Términos y Condiciones \| GASPRE$/ },
  ]) {
    test(`${path} has its own title, description, canonical URL and preview tags`, async ({
      page,
    }) => {
      await page.goto(path)
      await expect(page).toHaveTitle(title)
      const meta = (selector: string) => page.locator(selector).getAttribute('content')
      const description = await meta('meta[name="description"]')
      expect(description?.length).toBeGreaterThan(80)
      expect(description?.length).toBeLessThanOrEqual(160)
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
      expect(canonical).toBe(`https://gaspre.mx${path}`)
      expect(await meta('meta[property="og:url"]')).toBe(canonical)
      expect(await meta('meta[property="og:title"]')).toBe(await page.title())
      expect(await meta('meta[property="og:image"]')).toBe('https://gaspre.mx/og-image.png')
      expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image')
      expect(await meta('meta[property="og:locale"]')).toBe('es_MX')
    })
  }

  test('the home page describes the company and the free demo as structured data', async ({
    page,
  }) => {
    await page.goto('/')
    const json = await page.locator('script[type="application/ld+json"]').textContent()
    const graph = (
      JSON.parse(json!) as { '@graph': { '@type': string; offers?: { price: string } }[] }
    )['@graph']
    expect(graph.map((node) => node['@type'])).toEqual(['Organization', 'SoftwareApplication'])
    expect(graph[1]!.offers?.price).toBe('0')
  })

  test('robots.txt, the sitemap, the manifest and every linked icon exist', async ({ request }) => {
    const robots = await (await request.get('/robots.txt')).text()
    expect(robots).toContain('Sitemap: https://gaspre.mx/sitemap.xml')
    const sitemap = await (await request.get('/sitemap.xml')).text()
    expect(sitemap).toContain('<loc>https://gaspre.mx/</loc>')
    expect(sitemap).toContain('<loc>https://gaspre.mx/tyc</loc>')
    const manifest = (await (await request.get('/site.webmanifest')).json()) as {
      lang: string
      icons: { src: string }[]
    }
    expect(manifest.lang).toBe('es')
    const html = await (await request.get('/')).text()
    const linked = [
      ...html.matchAll(/<link rel="(?:icon|apple-touch-icon|manifest)" href="([^"]+)"/g),
    ].map((m) => m[1]!)
    for (const file of [
      ...linked,
      ...manifest.icons.map((icon) => icon.src),
      '/og-image.png',
      '/icon-512.png',
    ]) {
      expect((await request.get(file)).status(), file).toBe(200)
    }
  })

  test('the og image is 1200 × 630', async ({ request }) => {
    const png = await (await request.get('/og-image.png')).body()
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
  })
})
