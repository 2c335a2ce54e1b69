import AxeBuilder from '@axe-core/playwright'
import { devices, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { consent } from '../testing/content'
import { dataLayerSteps } from '../testing/data-layer'
import { demoRequest, expect, fillDemoForm, submitButton, test, uniqueEmail } from './fixtures'
import { onOneLayout } from './own-server'
import { ConfiguredBuild } from './configured-build'

/**
 * A build made with a tag manager configured (VITE_GTM_ID). The container's host is routed to
 * a stand-in container, so nothing leaves the machine; the stand-in records what the data layer
 * held when it ran and sets a _ga cookie, as Google's tags do.
 */
const CONTAINER_ID = 'GTM-E2E2026'
const TAG_HOSTS = /googletagmanager\.com|google-analytics\.com|analytics\.google\.com/
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

const STAND_IN_CONTAINER = `(function () {
  var layer = window.dataLayer || [];
  window.standInSaw = layer.map(function (entry) {
    return Object.prototype.toString.call(entry) === '[object Arguments]'
      ? Array.prototype.slice.call(entry, 0, 2).join(' ')
      : entry.event;
  });
  document.cookie = '_ga=GA1.1.' + Date.now() + '; Path=/; Max-Age=63072000';
})();`

type Paint = { type: string; inBanner?: boolean; value: number }

declare global {
  interface Window {
    standInSaw?: string[]
    paints?: Paint[]
  }
}

/** The built scripts that hold Consent Mode code. */
const consentCode = (dist: string) =>
  readdirSync(join(dist, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .filter((file) => readFileSync(join(dist, 'assets', file), 'utf8').includes('ad_user_data'))

/** Every request to a tag host is answered by the stand-in and remembered. */
async function routeTagHosts(context: BrowserContext): Promise<string[]> {
  const requests: string[] = []
  await context.route(TAG_HOSTS, (route) => {
    requests.push(route.request().url())
    return route.fulfill({ contentType: 'text/javascript', body: STAND_IN_CONTAINER })
  })
  return requests
}

const gaCookies = async (context: BrowserContext) =>
  (await context.cookies()).filter((cookie) => /^_ga|^_gid|^_gcl_/.test(cookie.name))

const banner = (page: Page) => page.getByRole('region', { name: consent.title })

/** Consent commands and events in the data layer, in order. */
const stepsIn = async (page: Page) =>
  (await page.evaluateHandle(() => window.dataLayer ?? [])).evaluate(dataLayerSteps)

/** Waits past the moment an accepted visit loads the container: the load event, then idle. */
const pastIdle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const idle = () => requestIdleCallback(() => setTimeout(resolve, 200), { timeout: 5000 })
        if (document.readyState === 'complete') idle()
        else window.addEventListener('load', idle, { once: true })
      }),
  )

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}

test.describe('a build with a tag manager configured', () => {
  // The build in beforeAll counts against this timeout; on a loaded machine it takes minutes.
  onOneLayout('phone layouts are opened explicitly below', 300_000)

  const site = new ConfiguredBuild('gtm')
  let origin = ''

  test.beforeAll(async () => {
    await site.start({ VITE_GTM_ID: CONTAINER_ID })
    origin = site.origin
  })

  test.afterAll(() => site.stop())

  const phoneContext = (browser: Browser) =>
    browser.newContext({ ...devices['Pixel 7'], viewport: { width: 390, height: 844 } })

  /** A visitor opens the home page and answers the banner: the tag hosts' requests, as they come. */
  async function answerOnHome(
    page: Page,
    context: BrowserContext,
    answer: 'Aceptar' | 'Rechazar',
  ): Promise<string[]> {
    const requests = await routeTagHosts(context)
    await page.goto(origin)
    await banner(page).getByRole('button', { name: answer }).click()
    return requests
  }

  test('before a choice: the banner asks, Consent Mode is denied, no tag host is contacted', async ({
    page,
    context,
  }) => {
    const requests = await routeTagHosts(context)
    for (const path of ['/', '/tyc']) {
      await page.goto(`${origin}${path}`)
      await expect(banner(page)).toBeVisible()
      await expect(banner(page).getByRole('button', { name: 'Aceptar' })).toBeVisible()
      await expect(banner(page).getByRole('button', { name: 'Rechazar' })).toBeVisible()
      await expect(banner(page).getByRole('link', { name: consent.more.label })).toHaveAttribute(
        'href',
        '/tyc#aviso-de-privacidad',
      )
      await pastIdle(page)
      expect(await stepsIn(page)).toEqual(['consent default'])
    }
    expect(requests).toEqual([])
    expect(await gaCookies(context)).toEqual([])
  })

  test('Aceptar and Rechazar are equally prominent', async ({ page }) => {
    await page.goto(origin)
    const look = (name: string) =>
      banner(page)
        .getByRole('button', { name })
        .evaluate((button) => {
          const style = getComputedStyle(button)
          const { width, height } = button.getBoundingClientRect()
          return {
            width: Math.round(width),
            height: Math.round(height),
            background: style.backgroundColor,
            color: style.color,
            font: `${style.fontSize} ${style.fontWeight}`,
          }
        })
    expect(await look('Rechazar')).toEqual(await look('Aceptar'))
  })

  test('Rechazar: nothing loads, not even after a reload, and the banner does not ask again', async ({
    page,
    context,
  }) => {
    const requests = await answerOnHome(page, context, 'Rechazar')
    await expect(banner(page)).toBeHidden()
    await page.reload()
    await pastIdle(page)
    await expect(banner(page)).toBeHidden()
    await page.goto(`${origin}/tyc`)
    await pastIdle(page)
    expect(requests).toEqual([])
    expect(await gaCookies(context)).toEqual([])
    expect(await stepsIn(page)).toEqual(['consent default'])
  })

  test('Aceptar: the consent update is in the data layer before the container, which loads', async ({
    page,
    context,
  }) => {
    const requests = await routeTagHosts(context)
    await page.goto(origin)
    await pastIdle(page)
    expect(requests).toEqual([])
    await banner(page).getByRole('button', { name: 'Aceptar' }).click()
    await expect(banner(page)).toBeHidden()
    await expect.poll(() => page.evaluate(() => window.standInSaw)).toBeDefined()
    expect(requests).toEqual([`https://www.googletagmanager.com/gtm.js?id=${CONTAINER_ID}`])
    expect(await page.evaluate(() => window.standInSaw)).toEqual([
      'consent default',
      'consent update',
      'gtm.js',
    ])
    expect(await gaCookies(context)).toHaveLength(1)

    // The next page remembers the choice: no banner, and the container loads once idle.
    await page.goto(`${origin}/tyc`)
    await expect.poll(() => page.evaluate(() => window.standInSaw)).toBeDefined()
    await expect(banner(page)).toBeHidden()
    expect(await page.evaluate(() => window.standInSaw)).toEqual([
      'consent default',
      'consent update',
      'gtm.js',
    ])
  })

  test('the footer reopens the choice on both pages; withdrawing stops the container from the next page', async ({
    page,
    context,
  }) => {
    const requests = await answerOnHome(page, context, 'Aceptar')
    await expect.poll(() => requests.length).toBe(1)
    await expect.poll(async () => (await gaCookies(context)).length).toBe(1)

    for (const path of ['/tyc', '/']) {
      await page.goto(`${origin}${path}`)
      await expect(banner(page)).toBeHidden()
      await expect.poll(() => page.evaluate(() => window.standInSaw)).toBeDefined()
      const reopen = page.getByRole('contentinfo').getByRole('button', { name: consent.reopen })
      await reopen.click()
      await expect(banner(page)).toBeVisible()
      await expect(banner(page)).toBeFocused()
      await page.keyboard.press('Escape')
      await expect(banner(page)).toBeHidden()
      await expect(reopen).toBeFocused()
    }
    await page.getByRole('contentinfo').getByRole('button', { name: consent.reopen }).click()
    await banner(page).getByRole('button', { name: 'Rechazar' }).click()
    await expect(banner(page)).toBeHidden()
    expect((await stepsIn(page)).at(-1)).toBe('consent update')
    expect(await gaCookies(context)).toEqual([])

    const loadsBefore = requests.length
    await page.reload()
    await pastIdle(page)
    await page.goto(`${origin}/tyc`)
    await pastIdle(page)
    expect(requests).toHaveLength(loadsBefore)
    expect(await page.evaluate(() => window.standInSaw)).toBeUndefined()
    expect(await gaCookies(context)).toEqual([])
  })

  test('conversion events still reach the data layer, with no name, e-mail or phone', async ({
    page,
    context,
  }) => {
    await answerOnHome(page, context, 'Aceptar')
    await expect(page.locator('input[name="contact_number"]')).toHaveValue(/^\d{1,5}$/)
    const values = demoRequest(uniqueEmail('consentimiento'))
    await fillDemoForm(page, values)
    await submitButton(page).click()
    await expect(page.getByRole('alertdialog')).toContainText('¡Éxito!')
    const steps = await stepsIn(page)
    expect(steps).toEqual(
      expect.arrayContaining(['gtm.js', 'demo_form_start', 'demo_request_submitted']),
    )
    const layer = await page.evaluate(() => JSON.stringify(window.dataLayer))
    for (const value of [values.user_name, values.user_email, values.user_phone])
      expect(layer).not.toContain(value)
  })

  test('the CSP allows the tag host in this build only, which holds the consent code', async ({
    request,
  }) => {
    expect(consentCode(site.outDir)).toHaveLength(1)
    const csp = (await request.get(origin)).headers()['content-security-policy']
    const scriptSources = csp!.match(/script-src ([^;]*)/)![1]!.split(' ')
    expect(scriptSources).toContain("'self'")
    expect(scriptSources).toContain('https://www.googletagmanager.com')
    expect(csp).not.toContain('unsafe-inline')
    const defaultCsp = (await request.get('/')).headers()['content-security-policy']
    expect(defaultCsp).not.toContain('googletagmanager')
  })

  test('on a phone the bar never covers the submit button', async ({ browser }) => {
    const context = await phoneContext(browser)
    await routeTagHosts(context)
    const page = await context.newPage()
    await page.goto(origin)
    await expect(banner(page)).toBeVisible()
    const submit = submitButton(page)
    // Walk the submit button up the screen, from just inside the bottom edge to under the header.
    for (const fromBottom of [10, 80, 200, 350, 500, 650, 700]) {
      await submit.evaluate((button, offset) => {
        const { bottom } = button.getBoundingClientRect()
        window.scrollBy({ top: bottom - window.innerHeight + offset, behavior: 'instant' })
      }, fromBottom)
      await expect
        .poll(() =>
          page.evaluate(() => {
            const bar = document.querySelector('[data-consent-banner]')!.getBoundingClientRect()
            const button = document
              .querySelector('#solicitar-demo-gratis button[type="submit"]')!
              .getBoundingClientRect()
            return bar.bottom <= button.top || bar.top >= button.bottom
          }),
        )
        .toBe(true)
    }
    await context.close()
  })

  test('the bar moves nothing on the page and is never its largest paint', async ({ browser }) => {
    for (const context of [await browser.newContext(), await phoneContext(browser)]) {
      const page = await context.newPage()
      await page.addInitScript(() => {
        const paints: Paint[] = []
        window.paints = paints
        type Entry = PerformanceEntry & { element?: Element | null; value?: number }
        const observe = (type: string) =>
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as Entry[])
              paints.push({
                type: entry.entryType,
                inBanner: Boolean(entry.element?.closest('[data-consent-banner]')),
                value: entry.value ?? 0,
              })
          }).observe({ type, buffered: true })
        observe('largest-contentful-paint')
        observe('layout-shift')
      })
      for (const path of ['/', '/tyc']) {
        await page.goto(`${origin}${path}`)
        await expect(banner(page)).toBeVisible()
        await pastIdle(page)
        const paints = (await page.evaluate(() => window.paints)) ?? []
        const lcp = paints.filter((entry) => entry.type === 'largest-contentful-paint')
        expect(lcp.length, path).toBeGreaterThan(0)
        expect(
          lcp.filter((entry) => entry.inBanner),
          path,
        ).toEqual([])
        const shift = paints
          .filter((entry) => entry.type === 'layout-shift')
          .reduce((sum, entry) => sum + entry.value, 0)
        expect(shift, path).toBeLessThan(0.01)
      }
      await context.close()
    }
  })

  test('axe finds nothing with the banner open, on both pages, at both widths', async ({
    browser,
  }) => {
    for (const context of [await browser.newContext(), await phoneContext(browser)]) {
      const page = await context.newPage()
      for (const path of ['/', '/tyc']) {
        await page.goto(`${origin}${path}`)
        await expect(banner(page)).toBeVisible()
        await expectNoAxeViolations(page)
      }
      await context.close()
    }
  })

  test('the keyboard reaches the choice right after the skip link', async ({ page }) => {
    await page.goto(origin)
    await expect(banner(page)).toBeVisible()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await expect(banner(page).getByRole('link', { name: consent.more.label })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(banner(page).getByRole('button', { name: 'Aceptar' })).toBeFocused()
    await page.keyboard.press('Tab')
    const reject = banner(page).getByRole('button', { name: 'Rechazar' })
    await expect(reject).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(banner(page)).toBeHidden()
    await expect(page.locator('main')).toBeFocused()
  })
})

test.describe('the default build, with no tag manager', () => {
  test('shows no banner or preferences link and ships no consent code', async ({ page }) => {
    for (const path of ['/', '/tyc']) {
      await page.goto(path)
      await expect(page.locator('[data-consent-banner]')).toHaveCount(0)
      await expect(page.getByRole('button', { name: consent.reopen })).toHaveCount(0)
    }
    expect(consentCode('dist')).toEqual([])
  })
})
