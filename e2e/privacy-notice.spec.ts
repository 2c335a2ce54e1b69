import { demoSection, legalTexts } from '../testing/content'
import { backgroundBehind, contrastRatio } from './contrast'
import { expect, gotoHome, submitButton, test } from './fixtures'

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
    expect(contrastRatio(look.color, await backgroundBehind(notice))).toBeGreaterThanOrEqual(4.5)
    expect(look.size).toBeGreaterThanOrEqual(14)
  })

  test('its link leads to the privacy summary on /tyc', async ({ page }) => {
    await gotoHome(page)
    await page
      .locator('#solicitar-demo-gratis')
      .getByRole('link', { name: demoSection.privacyNotice.link.label })
      .click()
    await expect(page).toHaveURL(/\/tyc#aviso-de-privacidad$/)
    const summary = page.getByRole('region', { name: legalTexts.privacy.title })
    await expect(summary.getByRole('heading', { level: 2 })).toBeInViewport()
    await expect(summary).toBeFocused()
    await expect(summary.locator('li[id^="privacidad-"]')).toHaveCount(6)
  })
})
