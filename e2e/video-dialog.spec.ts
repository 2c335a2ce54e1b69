import { heroActions, videoDialog } from '../testing/content'
import { expect, gotoHome, test } from './fixtures'

test.describe('video popup', () => {
  test.beforeEach(async ({ page }) => {
    // The player itself is not reachable from this offline machine; the test checks that the
    // popup asks for it, without waiting on it.
    await page.route(/youtube-nocookie\.com/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }),
    )
    await gotoHome(page)
  })

  test('is hidden until Ver video opens it as a modal dialog with the player', async ({ page }) => {
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.locator('dialog iframe')).toHaveCount(0)
    await page.getByRole('button', { name: heroActions.videoCta }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog).toHaveAttribute('aria-modal', 'true')
    const player = dialog.locator('iframe')
    await expect(player).toHaveAttribute('src', /youtube-nocookie\.com\/embed\/.+autoplay=1/)
    await expect(player).toHaveAttribute('title', /.+/)
  })

  test('closes with its Cerrar button, stops the video and gives focus back', async ({ page }) => {
    const opener = page.getByRole('button', { name: heroActions.videoCta })
    await opener.click()
    await page.getByRole('dialog').getByRole('button', { name: videoDialog.close }).click()
    await expect(page.getByRole('dialog')).toBeHidden()
    await expect(page.locator('dialog iframe')).toHaveCount(0)
    await expect(opener).toBeFocused()
  })

  test('closes on a click on the overlay but not on a click inside', async ({ page }) => {
    await page.getByRole('button', { name: heroActions.videoCta }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading').click()
    await expect(dialog).toBeVisible()
    await page.mouse.click(5, 5)
    await expect(dialog).toBeHidden()
  })

  test('Tab moves focus only within the dialog or out to the browser, then Escape closes it', async ({
    page,
  }) => {
    const opener = page.getByRole('button', { name: heroActions.videoCta })
    await opener.click()
    const dialog = page.getByRole('dialog')
    // Opening puts focus inside, on its first control (a frame after the tap: the veil first).
    await expect(dialog.getByRole('button', { name: videoDialog.close })).toBeFocused()
    const focusPlaces: string[] = []
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab')
      // A modal <dialog> makes the page behind inert: after its last control, Tab leaves the
      // document for the browser's own interface (the document loses focus) and comes back,
      // sometimes by way of the document itself (the body) before the dialog's first control.
      focusPlaces.push(
        await dialog.evaluate((element) => {
          const focused = document.activeElement
          if (!document.hasFocus()) return 'browser'
          if (focused === null || focused === document.body) return 'document'
          if (element.contains(focused)) return 'dialog'
          return `page behind: ${focused.outerHTML.slice(0, 80)}`
        }),
      )
    }
    expect(focusPlaces.filter((place) => place.startsWith('page behind'))).toEqual([])
    expect(focusPlaces).toContain('dialog')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()
  })
})
