import { contentValue, maxLength } from '../testing/content'
import { expect, gotoHome, test } from './fixtures'

/**
 * The content schema's length limits, measured on the narrowest phone the site supports
 * (320 px): every text at the longest the schema allows still fits its place, with no text
 * running out of its box and nothing to scroll sideways. A limit raised past what fits fails
 * here, naming the field.
 */
const WORDS =
  'Precios de la competencia en tiempo real para cada estación de servicio del grupo gasolinero '

/** Realistic Spanish of exactly `length` characters, cut at a word where it can be. */
function textOf(length: number) {
  const text = WORDS.repeat(Math.ceil(length / WORDS.length) + 1).slice(0, length)
  return text.endsWith(' ') ? `${text.slice(0, -1)}.` : text
}

/** Fields a visitor sees on a phone, by file and path, with the text they show now. */
const FIELDS = [
  ['inicio.yml', 'hero.eyebrow'],
  ['inicio.yml', 'hero.title'],
  ['inicio.yml', 'hero.lead'],
  ['inicio.yml', 'hero.proof.0.figure'],
  ['inicio.yml', 'hero.proof.2.label'],
  ['inicio.yml', 'heroActions.primaryCta.label'],
  ['inicio.yml', 'heroActions.videoCta'],
  ['inicio.yml', 'carousel.heading'],
  ['inicio.yml', 'carousel.slides.0.title'],
  ['inicio.yml', 'carousel.slides.0.text'],
  ['inicio.yml', 'clients.heading'],
  ['inicio.yml', 'clients.lead'],
  ['inicio.yml', 'pillars.heading'],
  ['inicio.yml', 'pillars.lead'],
  ['inicio.yml', 'pillars.items.0.title'],
  ['inicio.yml', 'pillars.items.0.text'],
  ['inicio.yml', 'videoSection.heading'],
  ['inicio.yml', 'videoSection.lead'],
  ['inicio.yml', 'demoSection.heading'],
  ['inicio.yml', 'demoSection.lead'],
  ['inicio.yml', 'demoSection.promises.0'],
  ['sitio.yml', 'header.cta.label'],
  ['sitio.yml', 'footer.blurb'],
  ['sitio.yml', 'footer.whatsappLabel'],
  ['sitio.yml', 'footer.legal.label'],
  ['sitio.yml', 'footer.copyright'],
  ['formulario.yml', 'demoForm.labels.user_group'],
  ['formulario.yml', 'demoForm.hints.message'],
  ['formulario.yml', 'demoForm.submit'],
] as const

test.describe('content at its longest, on a 320 px phone', () => {
  test.skip(({ isMobile }) => !isMobile, 'the narrowest screen is a phone')

  test('every text the schema allows fits its place', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 720 })
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await gotoHome(page)
    const fields = FIELDS.map(([file, path]) => ({
      name: `${file} ${path}`,
      current: contentValue(file, path),
      longest: textOf(maxLength(file, path)),
    }))
    const overflowing = await page.evaluate((fields) => {
      const texts: Text[] = []
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      while (walker.nextNode()) texts.push(walker.currentNode as Text)
      const problems: string[] = []
      for (const field of fields) {
        // The words themselves, beside an icon or not: the field's own text node, shown.
        const text = texts.find(
          (node) =>
            node.data.trim() === field.current.trim() &&
            (node.parentElement?.getClientRects().length ?? 0) > 0,
        )
        if (!text) {
          problems.push(`${field.name}: not found on the page`)
          continue
        }
        text.data = field.longest
        text.parentElement!.dataset.measured = field.name
      }
      for (const element of document.querySelectorAll<HTMLElement>('[data-measured]')) {
        const box = element.getBoundingClientRect()
        if (element.scrollWidth > element.clientWidth + 1 || box.right > innerWidth + 0.5)
          problems.push(`${element.dataset.measured}: runs out of its place`)
      }
      if (document.documentElement.scrollWidth > innerWidth)
        problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`)
      return problems
    }, fields)
    expect(overflowing).toEqual([])
  })
})
