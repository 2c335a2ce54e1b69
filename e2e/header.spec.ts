import { header as headerCopy, navLinks } from '../testing/content'
import { expect, gotoHome, test } from './fixtures'

const sections = ['#porque-gaspre', '#nuestros-clientes', '#solicitar-demo-gratis']

test.describe('header on a desktop screen', () => {
  test.skip(({ isMobile }) => isMobile, 'desktop layout')

  test('shows the logo, the three section links and the demo button', async ({ page }) => {
    await gotoHome(page)
    const header = page.locator('header').first()
    await expect(header.getByRole('link', { name: headerCopy.logoLabel })).toHaveAttribute(
      'href',
      '#',
    )
    const nav = page.getByRole('navigation', { name: headerCopy.navLabel })
    await expect(nav).toBeVisible()
    expect(
      await nav.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(sections)
    await expect(
      header.getByRole('link', { name: headerCopy.cta.label, exact: true }),
    ).toHaveAttribute('href', '#solicitar-demo-gratis')
    await expect(page.getByRole('button', { name: headerCopy.openMenu })).toBeHidden()
  })

  test('stays fixed at the top while scrolling', async ({ page }) => {
    await gotoHome(page)
    await page.mouse.wheel(0, 2500)
    await expect
      .poll(() =>
        page
          .locator('header')
          .first()
          .evaluate((el) => el.getBoundingClientRect().top),
      )
      .toBe(0)
    await expect(
      page.getByRole('link', { name: headerCopy.cta.label, exact: true }),
    ).toBeInViewport()
  })

  test('an in-page link scrolls to its section and moves focus there', async ({ page }) => {
    await gotoHome(page)
    await page
      .getByRole('navigation', { name: headerCopy.navLabel })
      .getByRole('link', { name: navLinks[1]!.label })
      .click()
    await expect(page.locator('#nuestros-clientes')).toBeFocused()
    await expect(page.locator('#nuestros-clientes h2')).toBeInViewport()
  })
})

test.describe('mobile menu on a phone', () => {
  test.skip(({ isMobile }) => !isMobile, 'phone layout')

  test('opens and closes with the menu button and holds the same links', async ({ page }) => {
    await gotoHome(page)
    await expect(page.getByRole('navigation', { name: headerCopy.navLabel })).toBeHidden()
    const button = page.getByRole('button', { name: headerCopy.openMenu })
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(button).toHaveAttribute('aria-controls', 'menu-movil')
    await button.click()
    const menu = page.getByRole('navigation', { name: headerCopy.mobileNavLabel })
    await expect(menu).toBeVisible()
    await expect(page.getByRole('button', { name: headerCopy.closeMenu })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    expect(
      await menu
        .locator('a')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(sections)
    await page.getByRole('button', { name: headerCopy.closeMenu }).click()
    await expect(menu).toBeHidden()
  })

  test('choosing a link closes the menu and lands on the section', async ({ page }) => {
    await gotoHome(page)
    await page.getByRole('button', { name: headerCopy.openMenu }).click()
    await page
      .getByRole('navigation', { name: headerCopy.mobileNavLabel })
      .getByRole('link', { name: navLinks[0]!.label })
      .click()
    await expect(page.getByRole('navigation', { name: headerCopy.mobileNavLabel })).toBeHidden()
    await expect(page.locator('#porque-gaspre')).toBeFocused()
    await expect(page.locator('#porque-gaspre h2')).toBeInViewport()
  })

  test('Escape closes the menu and gives focus back to its button', async ({ page }) => {
    await gotoHome(page)
    await page.getByRole('button', { name: headerCopy.openMenu }).click()
    await page
      .getByRole('navigation', { name: headerCopy.mobileNavLabel })
      .getByRole('link')
      .first()
      .focus()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('navigation', { name: headerCopy.mobileNavLabel })).toBeHidden()
    await expect(page.getByRole('button', { name: headerCopy.openMenu })).toBeFocused()
  })
})

test('on the terms page the menu leads back to the home sections', async ({ page, isMobile }) => {
  // The menu button works once the page's script has run, which the load event does not wait for.
  await gotoHome(page, '/tyc')
  const nav = isMobile
    ? page.locator('#menu-movil')
    : page.getByRole('navigation', { name: headerCopy.navLabel })
  expect(
    await nav.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
  ).toEqual(sections.map((section) => `/${section}`))
  await expect(page.getByRole('link', { name: headerCopy.logoLabel }).first()).toHaveAttribute(
    'href',
    '/',
  )
  if (isMobile) await page.getByRole('button', { name: headerCopy.openMenu }).click()
  await nav.getByRole('link', { name: navLinks[1]!.label }).click()
  await expect(page).toHaveURL(/\/#nuestros-clientes$/)
  await expect(page.locator('#nuestros-clientes h2')).toBeInViewport()
})
