import { heroBoard } from '../testing/content'
import { expect, gotoHome, test } from './fixtures'

test.describe('the first screen shows the product', () => {
  test('beside the headline on a desktop window, as one named picture', async ({
    page,
    isMobile,
  }) => {
    test.skip(isMobile, 'phones get the headline alone')
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 })
      await gotoHome(page)
      const picture = page.getByRole('img', { name: heroBoard.label })
      await expect(picture).toBeVisible()
      await expect(picture).toContainText(heroBoard.title)
      await expect(picture).toContainText(heroBoard.alert.text)
      // Whole on the first screen, and to the right of the headline.
      const box = (await picture.boundingBox())!
      const title = (await page.getByRole('heading', { level: 1 }).boundingBox())!
      expect(box.y + box.height).toBeLessThanOrEqual(900)
      expect(box.x).toBeGreaterThanOrEqual(title.x + title.width)
    }
  })

  test('keeps its place while the page arrives: half read, it starts where it ends', async ({
    page,
    isMobile,
  }) => {
    test.skip(isMobile, 'phones get the headline alone')
    // A slow line paints the page before the browser has read all of it; a board that moved as
    // its rows arrived would be a layout shift on the first screen.
    await page.setViewportSize({ width: 1280, height: 900 })
    await gotoHome(page)
    const picture = page.getByRole('img', { name: heroBoard.label })
    const whole = (await picture.boundingBox())!
    // As the parser leaves it after the board's head: the card's rows and the alert not yet read.
    await picture.evaluate((board) => {
      const card = board.firstElementChild!
      while (card.children.length > 1) card.lastElementChild!.remove()
      while (board.children.length > 1) board.lastElementChild!.remove()
    })
    const half = (await picture.boundingBox())!
    expect(half.height).toBeLessThan(whole.height / 2)
    expect([half.x, half.y]).toEqual([whole.x, whole.y])
  })

  test('is left out on a phone', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'a phone layout')
    await gotoHome(page)
    await expect(page.getByRole('img', { name: heroBoard.label })).toBeHidden()
  })

  test('never becomes the largest paint: the headline stays the LCP element', async ({ page }) => {
    await page.addInitScript(() => {
      const found: string[] = []
      Object.assign(window, { lcpElements: found })
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element?: Element })[]) {
          found.push(entry.element?.tagName ?? '')
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true })
    })
    await gotoHome(page)
    // Reading LCP ends at the first input; the last candidate before it is the LCP element.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { lcpElements: string[] }).lcpElements))
      .toContain('H1')
    const candidates = await page.evaluate(
      () => (window as unknown as { lcpElements: string[] }).lcpElements,
    )
    expect(candidates.at(-1)).toBe('H1')
  })

  test('is painted before the page asks for any script', async ({ page }) => {
    await gotoHome(page)
    // Scripts asked for before the headline's frame share the first round trips with the HTML:
    // the page adds them once the browser reports that frame (islands/load-after-first-paint.js).
    const { headline, scripts } = await page.evaluate(() => ({
      headline: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => entry.startTime),
    }))
    expect(scripts.length).toBeGreaterThan(0)
    for (const start of scripts) expect(start).toBeGreaterThanOrEqual(headline)
  })
})

test.describe('the pictures below the first screen', () => {
  test('are not built before the headline is shown, and keep their place', async ({ page }) => {
    // Each picture is an SVG document that Chromium parses and lays out in a task of its own as
    // soon as it is requested, and a lazy picture is requested by the first frame that lays it
    // out near the viewport. Built between that frame and its presentation, they are work
    // before the headline's paint in Lighthouse's model of the largest paint (decision 031).
    await page.addInitScript(() => {
      // Registered before the page's own observer, so it runs first on the same entry.
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return
        observer.disconnect()
        const pictures = [...document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]')]
        Object.assign(window, {
          atFirstPaint: {
            built: pictures.filter((picture) => picture.naturalWidth > 0).length,
            boxes: pictures.map((picture) => {
              const box = picture.parentElement!.getBoundingClientRect()
              return { top: box.top + scrollY, height: box.height }
            }),
          },
        })
      }).observe({ type: 'paint', buffered: true })
    })
    await gotoHome(page)
    type Box = { top: number; height: number }
    const atFirstPaint = await page.evaluate(
      () => (window as unknown as { atFirstPaint: { built: number; boxes: Box[] } }).atFirstPaint,
    )
    expect(atFirstPaint.boxes.length).toBeGreaterThan(0)
    expect(atFirstPaint.built).toBe(0)

    // Once shown, each picture is there, in the box that held its place.
    // The slides' pictures (not the copy of the first one that the carousel adds), then the logos.
    const pictures = page.locator(
      '[data-carousel-viewport] [role="group"] img, #nuestros-clientes img',
    )
    for (const picture of [
      page.locator('[data-carousel-viewport] img').first(),
      page.locator('#nuestros-clientes').getByRole('img').last(),
    ]) {
      await picture.scrollIntoViewIfNeeded()
      await expect(picture).toBeVisible()
      await expect
        .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0)
    }
    const boxes = await pictures.evaluateAll((images) =>
      images.map((image) => {
        const box = image.parentElement!.getBoundingClientRect()
        return { top: box.top + scrollY, height: box.height }
      }),
    )
    atFirstPaint.boxes.forEach((box, index) => {
      expect(boxes[index]!.top).toBeCloseTo(box.top, 0)
      expect(boxes[index]!.height).toBeCloseTo(box.height, 0)
    })
  })
})
