import { demoForm, heroActions, videoDialog } from '../testing/content'
import { alertDialog, expect, gotoHome, sendDemoRequest, test, uniqueEmail } from './fixtures'

declare global {
  interface Window {
    cspViolations?: string[]
  }
}

test('the whole site runs under the production CSP without a single violation', async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.cspViolations = []
    document.addEventListener('securitypolicyviolation', (event) =>
      window.cspViolations!.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  await page.route(/youtube-nocookie\.com/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }),
  )

  const response = await page.request.get('/')
  expect(response.headers()['content-security-policy']).toMatch(/script-src 'self'(;| 'sha256)/)
  expect(response.headers()['content-security-policy']).not.toContain('unsafe-inline')

  await gotoHome(page)
  for (let y = 0; y < 8; y++) await page.mouse.wheel(0, 900)
  await page.getByRole('button', { name: heroActions.videoCta }).click()
  await page.getByRole('dialog').getByRole('button', { name: videoDialog.close }).click()
  await sendDemoRequest(page, uniqueEmail('csp'))
  await expect(alertDialog(page)).toContainText(demoForm.alert.successTitle)
  expect(await page.evaluate(() => window.cspViolations)).toEqual([])

  await page.goto('/tyc')
  await page.mouse.wheel(0, 4000)
  expect(await page.evaluate(() => window.cspViolations)).toEqual([])
})
