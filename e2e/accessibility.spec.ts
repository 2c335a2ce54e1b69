import { demoForm, heroActions, header } from '../testing/content'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { backgroundBehind, contrastRatio } from './contrast'
import {
  alertDialog,
  expect,
  fillDemoForm,
  gotoHome,
  queueFaults,
  sendDemoRequest,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  const summary = violations.map(
    (v) => `${v.id}: ${v.help} → ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
  expect(summary).toEqual([])
}

test.describe('axe-core finds no WCAG 2.2 AA violation', () => {
  test('on the home page', async ({ page }) => {
    await gotoHome(page)
    await expectNoAxeViolations(page)
  })

  test('on the terms page', async ({ page }) => {
    await page.goto('/tyc')
    await expectNoAxeViolations(page)
  })

  test('with the mobile menu open', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the menu exists on phones')
    await gotoHome(page)
    await page.getByRole('button', { name: header.openMenu }).click()
    await expectNoAxeViolations(page)
  })

  test('with the video dialog open', async ({ page }) => {
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<html lang="es"><title>Video</title><p>Video</p></html>',
      }),
    )
    await gotoHome(page)
    await page.getByRole('button', { name: heroActions.videoCta }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await expectNoAxeViolations(page)
  })

  test('with the success alert', async ({ page }) => {
    await gotoHome(page)
    await sendDemoRequest(page, uniqueEmail('axe-exito'))
    await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
    await expectNoAxeViolations(page)
  })

  test('with the error alert', async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('axe-error')
    await queueFaults(page, email, [{ status: 500, body: 'Service unavailable' }])
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(demoForm.alert.errorTitle)
    await expectNoAxeViolations(page)
  })

  test('with validation messages showing', async ({ page }) => {
    await gotoHome(page)
    await fillDemoForm(page, { user_email: 'ana@grupo', user_phone: '12' })
    await submitButton(page).click()
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(4)
    await expectNoAxeViolations(page)
  })
})

test.describe('perception', () => {
  test('every target is at least 24 × 24 CSS px', async ({ page }) => {
    for (const path of ['/', '/tyc']) {
      await page.goto(path)
      const small = await page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            'a[href], button, input:not([type="hidden"]), textarea, select',
          ),
        ]
          .filter(
            (element) =>
              element.getClientRects().length > 0 &&
              !element.closest('[aria-hidden="true"], [inert]'),
          )
          // Links inside running text are exempt (WCAG 2.5.8, inline).
          .filter((element) => !(element.tagName === 'A' && element.parentElement?.tagName === 'P'))
          .map((element) => {
            const { width, height } = element.getBoundingClientRect()
            return {
              label: element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30),
              width,
              height,
            }
          })
          .filter(({ width, height }) => width < 24 || height < 24),
      )
      expect(small, path).toEqual([])
    }
  })

  test('the page works at 200 % zoom without scrolling sideways', async ({ page, isMobile }) => {
    test.skip(isMobile, 'zoom is emulated on the desktop layout')
    // 200 % zoom of a 1280 px window lays the page out at 640 CSS px.
    await page.setViewportSize({ width: 640, height: 400 })
    for (const path of ['/', '/tyc']) {
      await page.goto(path)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        640,
      )
    }
  })
})

test.describe('keyboard', () => {
  test('a skip link leads to the main content', async ({ page }) => {
    await gotoHome(page)
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: header.skipLink })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(page.locator('main')).toBeFocused()
  })

  test('every focused element shows a ring of 3:1 and is never hidden under the header', async ({
    page,
  }) => {
    // A ceiling, not a timing: every stop of the tab order on both pages is measured.
    test.setTimeout(120_000)
    for (const path of ['/', '/tyc']) {
      await page.goto(path)
      let stops = 0
      for (let step = 0; step < 120; step++) {
        await page.keyboard.press('Tab')
        const focus = await page.evaluate(() => {
          const element = document.activeElement
          if (!element || element === document.body || element.tagName === 'IFRAME') return null
          if (element.hasAttribute('data-focus-visited')) return 'cycle'
          element.setAttribute('data-focus-visited', '')
          const style = getComputedStyle(element)
          const rect = element.getBoundingClientRect()
          const header = document.querySelector('header')!.getBoundingClientRect()
          const inHeader = Boolean(element.closest('header'))
          return {
            label:
              element.getAttribute('aria-label') ??
              element.textContent?.trim().slice(0, 40) ??
              element.tagName,
            outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
            outlineColor: style.outlineColor,
            obscured: !inHeader && rect.bottom <= header.bottom + 1,
            skip: element.classList.contains('skip-link'),
          }
        })
        if (focus === null) continue
        if (focus === 'cycle') break
        stops++
        expect.soft(focus.outline, `focus ring on ${focus.label}`).toBe(true)
        // The ring is drawn around the element, over what is behind it.
        const behind = await backgroundBehind(page.locator(':focus'), { around: true })
        expect
          .soft(contrastRatio(focus.outlineColor, behind), `focus ring contrast on ${focus.label}`)
          .toBeGreaterThanOrEqual(3)
        if (!focus.skip)
          expect.soft(focus.obscured, `${focus.label} hidden under the header`).toBe(false)
      }
      expect(stops, `focus stops on ${path}`).toBeGreaterThan(path === '/' ? 20 : 15)
    }
  })
})

test.describe('screen readers', () => {
  test('find the landmarks, lists and named controls', async ({ page, isMobile }) => {
    await gotoHome(page)
    await expect(page.getByRole('banner')).toHaveCount(1)
    await expect(page.getByRole('main')).toHaveCount(1)
    await expect(page.getByRole('contentinfo')).toHaveCount(1)
    await expect(
      page.getByRole('navigation', {
        name: isMobile ? header.mobileNavLabel : header.navLabel,
        includeHidden: true,
      }),
    ).toHaveCount(1)
    await expect(page.locator('#nuestros-clientes').getByRole('list')).toHaveCount(1)
    await expect(page.locator('#nuestros-clientes').getByRole('listitem')).toHaveCount(12)
    const decorative = await page
      .locator('svg')
      .evaluateAll(
        (svgs) =>
          svgs.filter(
            (svg) => svg.getAttribute('aria-hidden') !== 'true' && !svg.querySelector('title'),
          ).length,
      )
    expect(decorative).toBe(0)
  })

  test('the heading outline is ordered, with one h1', async ({ page }) => {
    for (const path of ['/', '/tyc']) {
      await page.goto(path)
      const levels = await page
        .locator('h1, h2, h3, h4')
        .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName[1])))
      expect(levels[0]).toBe(1)
      expect(levels.filter((level) => level === 1)).toHaveLength(1)
      for (let i = 1; i < levels.length; i++)
        expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1)
    }
  })
})
