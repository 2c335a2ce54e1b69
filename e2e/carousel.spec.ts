import { carousel as carouselCopy } from '../testing/content'
import type { Page } from '@playwright/test'
import { expect, gotoHome, holdClock, test } from './fixtures'

const currentSlide = (page: Page) => page.locator('[aria-roledescription="slide"]:not([inert])')
const carousel = (page: Page) => page.locator('[aria-roledescription="carousel"]')

test.describe('demo carousel', () => {
  test.beforeEach(async ({ page }) => {
    await holdClock(page)
    await gotoHome(page)
  })

  test('is a labelled carousel of four captioned slides', async ({ page }) => {
    await expect(carousel(page)).toHaveAttribute('aria-label', /.+/)
    const slides = page.locator('[aria-roledescription="slide"]')
    await expect(slides).toHaveCount(4)
    const captions = [
      carouselCopy.slides[0]!.title,
      'Recibe notificaciones por WhatsApp',
      'Optimiza tu precio',
      'Tableros de seguimiento',
    ]
    for (const [index, caption] of captions.entries()) {
      await expect(slides.nth(index)).toHaveAttribute('role', 'group')
      await expect(slides.nth(index)).toHaveAttribute('aria-label', `${index + 1} de 4`)
      await expect(slides.nth(index).getByRole('heading', { includeHidden: true })).toHaveText(
        caption,
      )
      await expect(slides.nth(index).locator('img')).toHaveAttribute('alt', /.{20,}/)
    }
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
  })

  test('advances by itself every 3000 ms and loops', async ({ page }) => {
    await expect(page.locator('[aria-roledescription="slide"] [aria-live]')).toHaveCount(0)
    await expect(carousel(page).locator('[aria-live="off"]')).toHaveCount(1)
    await page.clock.runFor(2900)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await page.clock.runFor(200)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
    for (const expected of ['3 de 4', '4 de 4', '1 de 4']) {
      await page.clock.runFor(3000)
      await expect(currentSlide(page)).toHaveAttribute('aria-label', expected)
    }
  })

  test('pagination moves to each slide and keeps focus on the button', async ({ page }) => {
    for (const n of [3, 1, 4, 2]) {
      const dot = page.getByRole('button', { name: `Ir a la diapositiva ${n}` })
      await dot.click()
      await expect(currentSlide(page)).toHaveAttribute('aria-label', `${n} de 4`)
      await expect(dot).toHaveAttribute('aria-current', 'true')
      await expect(dot).toBeFocused()
    }
  })

  test('the pause button stops the rotation for good and says what it will do', async ({
    page,
  }) => {
    const pause = page.getByRole('button', { name: carouselCopy.controls.pause })
    // First in the carousel's tab order.
    const firstButton = carousel(page).getByRole('button').first()
    await expect(firstButton).toHaveAccessibleName(carouselCopy.controls.pause)
    await pause.click()
    const play = page.getByRole('button', { name: carouselCopy.controls.play })
    await expect(play).toBeVisible()
    await expect(carousel(page).locator('[aria-live="polite"]')).toHaveCount(1)
    // Focus and pointer leave the carousel: it stays paused.
    await page.locator('h1').click()
    await page.clock.runFor(10_000)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await play.click()
    await expect(pause).toBeVisible()
    await page.locator('h1').click()
    await page.clock.runFor(3100)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
  })

  test('stops while keyboard focus is inside and resumes when it leaves', async ({ page }) => {
    await page.getByRole('button', { name: carouselCopy.controls.goTo(1) }).focus()
    await page.clock.runFor(9000)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await expect(carousel(page).locator('[aria-live="polite"]')).toHaveCount(1)
    await page.locator('h1').click()
    await page.clock.runFor(3100)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
  })
})

test.describe('carousel on a desktop screen', () => {
  test.skip(({ isMobile }) => isMobile, 'pointer and arrows are desktop affordances')

  test.beforeEach(async ({ page }) => {
    await holdClock(page)
    await gotoHome(page)
  })

  test('previous and next arrows move through the slides, looping', async ({ page }) => {
    await page.getByRole('button', { name: carouselCopy.controls.previous }).click()
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '4 de 4')
    await page.getByRole('button', { name: carouselCopy.controls.next }).click()
    await page.getByRole('button', { name: carouselCopy.controls.next }).click()
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
    await expect(page.getByRole('button', { name: carouselCopy.controls.next })).toBeFocused()
  })

  test('stops while the pointer is over it', async ({ page }) => {
    await carousel(page).hover()
    await page.clock.runFor(9000)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await page.mouse.move(0, 0)
    await page.clock.runFor(3100)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
  })
})

test.describe('carousel on a phone', () => {
  test.skip(({ isMobile }) => !isMobile, 'phone layout')

  test('hides the arrows and follows a swipe', async ({ page }) => {
    await holdClock(page)
    await gotoHome(page)
    await expect(page.getByRole('button', { name: carouselCopy.controls.next })).toBeHidden()
    await expect(page.getByRole('button', { name: carouselCopy.controls.previous })).toBeHidden()
    const viewport = currentSlide(page).locator('..').locator('..')
    const swipe = async (fromX: number, toX: number) => {
      await viewport.dispatchEvent('pointerdown', {
        clientX: fromX,
        clientY: 300,
        pointerType: 'touch',
        isPrimary: true,
      })
      await viewport.dispatchEvent('pointerup', {
        clientX: toX,
        clientY: 300,
        pointerType: 'touch',
        isPrimary: true,
      })
    }
    await swipe(300, 100)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
    await swipe(100, 300)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await swipe(200, 190)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
  })
})

test.describe('motion', () => {
  test('the lines draw with the scroll and reset above their start', async ({ page }) => {
    await gotoHome(page)
    const line = page.locator('section[aria-labelledby="como-funciona"] svg path').first()
    const offset = () =>
      line.evaluate((path) =>
        Number.parseFloat((path as SVGPathElement).style.strokeDashoffset || '1700'),
      )
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    await expect.poll(offset).toBeGreaterThan(1500)
    await page.locator('section[aria-labelledby="como-funciona"]').evaluate((section) =>
      window.scrollTo({
        top: section.getBoundingClientRect().top + window.scrollY - 100,
        behavior: 'instant',
      }),
    )
    await expect.poll(offset).toBeLessThan(1200)
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
    await expect.poll(offset).toBeGreaterThan(1500)
  })

  test('with reduced motion the carousel starts paused and the lines are drawn whole', async ({
    browser,
  }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' })
    const page = await context.newPage()
    await holdClock(page)
    await gotoHome(page)
    await expect(page.getByRole('button', { name: carouselCopy.controls.play })).toBeVisible()
    await page.clock.runFor(10_000)
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    const line = page.locator('section[aria-labelledby="como-funciona"] svg path').first()
    expect(await line.evaluate((path) => getComputedStyle(path).strokeDashoffset)).toBe('0px')
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior),
    ).toBe('auto')
    await context.close()
  })
})

/**
 * Records, frame by frame, which slide the carousel shows: the one standing at the left edge of
 * its window, known by its title (so a copy of the first slide shows the first). Sampling every
 * frame catches a slide that only passes by, as a rewind from the fourth to the first would show
 * the third and the second.
 */
async function sampleShownSlides(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const viewport = document.querySelector('[data-carousel-viewport]')!
    const titles = [...viewport.querySelectorAll('[aria-roledescription="slide"] h3')].map(
      (title) => title.textContent ?? '',
    )
    const shown: number[] = []
    Object.assign(window, { shownSlides: shown })
    const sample = () => {
      const edge = viewport.getBoundingClientRect().left
      let nearest: Element | undefined
      for (const child of viewport.firstElementChild!.children) {
        const distance = Math.abs(child.getBoundingClientRect().left - edge)
        const best = nearest && Math.abs(nearest.getBoundingClientRect().left - edge)
        if (best === undefined || distance < best) nearest = child
      }
      const slide = titles.indexOf(nearest?.querySelector('h3')?.textContent ?? '') + 1
      if (shown.at(-1) !== slide) shown.push(slide)
      requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
  return () =>
    page.evaluate(() => (window as Window & { shownSlides?: number[] }).shownSlides ?? [])
}

test.describe('the carousel loops forward, never rewinding', () => {
  test.beforeEach(async ({ page }) => {
    await gotoHome(page)
    await carousel(page).scrollIntoViewIfNeeded()
  })

  test('by itself: after the fourth slide comes the first, with no slide between', async ({
    page,
  }) => {
    const shown = await sampleShownSlides(page)
    // Four turns of 3000 ms each, in real time: the browser's own smooth scroll is watched.
    await expect.poll(shown, { timeout: 20_000, intervals: [500] }).toEqual([1, 2, 3, 4, 1])
    // The first slide is the one announced and current, and there are still four slides.
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await expect(page.locator('[aria-roledescription="slide"]')).toHaveCount(4)
    await expect(carousel(page).getByRole('group')).toHaveCount(4)
    await expect(page.getByRole('button', { name: carouselCopy.controls.goTo(1) })).toHaveAttribute(
      'aria-current',
      'true',
    )
  })

  test('with the arrows or a swipe: from the first back to the fourth and on to the first', async ({
    page,
    isMobile,
  }) => {
    const viewport = carousel(page).locator('[data-carousel-viewport]')
    const step = async (direction: 'previous' | 'next') => {
      if (!isMobile) {
        await page.getByRole('button', { name: carouselCopy.controls[direction] }).click()
        return
      }
      // A finger's swipe: leftwards shows the next slide.
      const [from, to] = direction === 'next' ? [300, 100] : [100, 300]
      const touch = { clientY: 300, pointerType: 'touch', isPrimary: true }
      await viewport.dispatchEvent('pointerdown', { ...touch, clientX: from })
      await viewport.dispatchEvent('pointerup', { ...touch, clientX: to })
    }
    // Paused, so the timed turns do not mix with the visitor's.
    await page.getByRole('button', { name: carouselCopy.controls.pause }).click()
    const shown = await sampleShownSlides(page)
    await expect.poll(shown).toEqual([1])
    await step('previous')
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '4 de 4')
    await expect.poll(shown).toEqual([1, 4])
    await step('next')
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '1 de 4')
    await expect.poll(shown).toEqual([1, 4, 1])
    // It stands on the real first slide again, and the next turn goes on to the second.
    await expect.poll(() => viewport.evaluate((element) => element.scrollLeft)).toBe(0)
    await step('next')
    await expect.poll(shown).toEqual([1, 4, 1, 2])
    await expect(currentSlide(page)).toHaveAttribute('aria-label', '2 de 4')
  })
})
