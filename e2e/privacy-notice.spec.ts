import { demoSection } from '../src/content/demo-section'
import { terms } from '../src/content/terms'
import { expect, gotoHome, submitButton, test } from './fixtures'

const contrast = (foreground: string, background: string) => {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number)
    const channel = (value: number) => {
      const c = value / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
  }
  const [a, b] = [luminance(foreground), luminance(background)]
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
}

test.describe('the privacy notice at the point of collection', () => {
  test('sits right after the submit button, names who is responsible, and is readable', async ({
    page,
  }) => {
    await gotoHome(page)
    const notice = page
      .locator('#solicitar-demo-gratis p')
      .filter({ hasText: 'responsable de tus datos' })
    await expect(notice).toHaveText(
      `${demoSection.privacyNotice.text}${demoSection.privacyNotice.link.label}${demoSection.privacyNotice.end}`,
    )
    await expect(notice).toContainText('GASPRE Inteligencia en Precios')
    const submitBox = (await submitButton(page).boundingBox())!
    const noticeBox = (await notice.boundingBox())!
    expect(noticeBox.y - (submitBox.y + submitBox.height)).toBeGreaterThanOrEqual(0)
    expect(noticeBox.y - (submitBox.y + submitBox.height)).toBeLessThan(40)
    const look = await notice.evaluate((element) => ({
      color: getComputedStyle(element).color,
      size: Number.parseFloat(getComputedStyle(element).fontSize),
    }))
    expect(contrast(look.color, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(4.5)
    expect(look.size).toBeGreaterThanOrEqual(14)
  })

  test('its link leads to the privacy summary on /tyc', async ({ page }) => {
    await gotoHome(page)
    await page
      .locator('#solicitar-demo-gratis')
      .getByRole('link', { name: demoSection.privacyNotice.link.label })
      .click()
    await expect(page).toHaveURL(/\/tyc#aviso-de-privacidad$/)
    const summary = page.getByRole('region', { name: terms.privacyTitle })
    await expect(summary.getByRole('heading', { level: 2 })).toBeInViewport()
    await expect(summary).toBeFocused()
    await expect(summary.locator('li[id^="privacidad-"]')).toHaveCount(6)
  })
})
