// The visitor journeys, written once and run in every engine through its EngineDriver. They
// cover what a visitor does; the Chromium Playwright suite (e2e/) covers each case in depth.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { anchors } from '../src/copy/anchors'
import {
  bookingPage,
  carousel,
  demoForm,
  header,
  hero,
  heroActions,
  legalTexts,
  navLinks,
  termsPage,
} from '../testing/content'
import { doorRefusals } from '../src/contract/lead-server-text'
import { FULL_DISK_DOMAIN } from '../testing/full-disk.mjs'
import { storedRequests as storedInDataDir } from '../testing/server/store'
import { BOOKING_REP, startBookingSite, type BookingSite } from './booking-site'
import { ENGINES_OUTBOX_DIR } from './site-server'
import {
  waitFor,
  waitForHydration,
  type Engine,
  type EngineDriver,
  type LaunchEngine,
} from './driver'

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const

type Viewport = (typeof VIEWPORTS)[number]

/** Where to save full-page screenshots of both pages, when set. */
const SCREENSHOT_DIR = process.env.ENGINE_SCREENSHOTS
/**
 * A font family to draw every screenshot with, when set. The site asks for the system font,
 * which each engine resolves differently on a Linux machine without Apple's or Google's fonts;
 * one font shows whether the layout itself matches.
 */
const SCREENSHOT_FONT = process.env.ENGINE_SCREENSHOT_FONT

const MOBILE_MENU = '#menu-movil'
const MENU_BUTTON = `button[aria-controls="menu-movil"]`
const FORM = `#${anchors.demo} form`
const SUBMIT = `${FORM} button[type="submit"]`
const OPEN_ALERT = 'dialog[role="alertdialog"][open]'
const CURRENT_SLIDE = '[aria-roledescription="slide"]:not([inert])'
const button = (label: string) => `button[aria-label="${label}"]`

// CAROUSEL_INTERVAL_MS in src/sections/demo-carousel.tsx (a component module, not imported here).
const ROTATION_MS = 3000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A unique e-mail per run, so the store and the fault queue are per journey. */
const uniqueEmail = (label: string, engine: Engine) =>
  `${label}-${engine}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@prueba.mx`

async function visitHome(driver: EngineDriver, path = '/'): Promise<void> {
  await driver.goto(path)
  await waitForHydration(driver)
}

/** A visitor who never came before: no draft, no rate limit, no first-touch record. */
async function visitHomeAfresh(driver: EngineDriver, home = '/'): Promise<void> {
  // Hydrated first: Firefox reports a module import cut short by leaving the page as an error.
  await visitHome(driver, home)
  await driver.evaluate(() => {
    localStorage.clear()
    sessionStorage.clear()
  })
  await visitHome(driver, home)
}

const isShown = (selector: string) => {
  const element = document.querySelector(selector)
  if (!element) return false
  const box = element.getBoundingClientRect()
  return getComputedStyle(element).visibility !== 'hidden' && box.width > 0 && box.height > 0
}

// Each function handed to evaluate runs in the page, so it cannot call another one.
const isHidden = (selector: string) => {
  const element = document.querySelector(selector)
  if (!element) return true
  const box = element.getBoundingClientRect()
  return getComputedStyle(element).visibility === 'hidden' || box.width === 0 || box.height === 0
}

/** True when the element's top is inside the viewport (the smooth scroll has arrived). */
const topIsInView = (selector: string) => {
  const element = document.querySelector(selector)
  if (!element) return false
  const { top } = element.getBoundingClientRect()
  return top >= 0 && top < innerHeight
}

const scrollsSideways = () =>
  document.documentElement.scrollWidth > document.documentElement.clientWidth

const activeElementMatches = (selector: string) =>
  document.activeElement instanceof Element && document.activeElement.matches(selector)

const currentSlideLabel = (driver: EngineDriver) =>
  driver.evaluate(
    (selector) => document.querySelector(selector)?.getAttribute('aria-label') ?? '',
    CURRENT_SLIDE,
  )

const textOf = (driver: EngineDriver, selector: string) =>
  driver.evaluate((s) => document.querySelector(s)?.textContent?.trim() ?? '', selector)

/** Marks the button whose visible text is `text`, so it can be clicked by selector. */
async function markButtonByText(driver: EngineDriver, text: string, mark: string) {
  const found = await driver.evaluate(
    (wanted, value) => {
      const match = [...document.querySelectorAll('button')].find(
        (candidate) => candidate.textContent?.trim() === wanted,
      )
      match?.setAttribute('data-journey', value)
      return match !== undefined
    },
    text,
    mark,
  )
  expect(found, `a button reading '${text}'`).toBe(true)
  return `[data-journey="${mark}"]`
}

/** Makes the images lazy loading would leave out part of a full-page screenshot. */
async function loadEveryImage(driver: EngineDriver) {
  await driver.evaluate(() => {
    for (const image of document.images) image.loading = 'eager'
  })
  await waitFor(driver, 'every image has loaded', () =>
    [...document.images].every((image) => image.complete),
  )
  await driver.evaluate(() => window.scrollTo(0, 0))
}

async function saveScreenshot(driver: EngineDriver, viewport: Viewport, page: string) {
  if (!SCREENSHOT_DIR) return
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  await loadEveryImage(driver)
  if (SCREENSHOT_FONT) {
    // A constructed style sheet: the CSP refuses an inline <style>, not the CSS object model.
    await driver.evaluate((family) => {
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(`*, *::before, *::after { font-family: '${family}' !important }`)
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    }, SCREENSHOT_FONT)
  }
  await sleep(300)
  await driver.screenshot(join(SCREENSHOT_DIR, `${page}-${viewport.width}-${driver.engine}.png`))
}

async function fillDemoForm(driver: EngineDriver, email: string) {
  const values = {
    user_name: 'Ana López Pérez',
    user_email: email,
    user_phone: '+52 55 1234 5678',
    user_group: 'Grupo Altamar',
    message: 'Tenemos 14 estaciones en el Bajío.',
  }
  for (const [name, value] of Object.entries(values)) {
    await driver.type(`${FORM} [name="${name}"]`, value)
  }
  return values
}

/** The requests the server stored for one address, read from its outbox file. */
async function storedRequests(email: string) {
  const stored = await storedInDataDir({ dataDir: ENGINES_OUTBOX_DIR })
  return stored.filter((request) => request.params.user_email === email)
}

async function submitAndWaitForAlert(driver: EngineDriver) {
  await driver.click(SUBMIT)
  await waitFor(driver, 'the alert is open', (s) => document.querySelector(s) !== null, OPEN_ALERT)
}

async function closeAlert(driver: EngineDriver) {
  await driver.click(`${OPEN_ALERT} form[method="dialog"] button`)
  await waitFor(driver, 'the alert has closed', (s) => !document.querySelector(s), OPEN_ALERT)
}

function journeysAt(getDriver: () => EngineDriver, viewport: Viewport) {
  const isPhone = viewport.name === 'phone'

  it('the home page renders whole and hydrates, with no script error', async () => {
    const driver = getDriver()
    await visitHomeAfresh(driver)
    // The adapter really gave the page this width to lay out (no classic scrollbar, no toolbar).
    expect(await driver.evaluate(() => document.documentElement.clientWidth)).toBe(viewport.width)
    expect(await textOf(driver, 'h1')).toBe(hero.title)
    const missing = await driver.evaluate(
      (ids) => ids.filter((id) => !document.getElementById(id)),
      [anchors.clients, anchors.why, anchors.video, anchors.demo],
    )
    expect(missing).toEqual([])
    expect(await driver.evaluate(scrollsSideways), 'sideways scroll').toBe(false)
    await saveScreenshot(driver, viewport, 'home')
  })

  if (isPhone) {
    it('the mobile menu opens and closes, and a link in it scrolls to its section', async () => {
      const driver = getDriver()
      await visitHome(driver)
      expect(await driver.evaluate(isShown, MOBILE_MENU)).toBe(false)
      await driver.click(MENU_BUTTON)
      await waitFor(driver, 'the menu is open', isShown, MOBILE_MENU)
      expect(
        await driver.evaluate(
          (s) => document.querySelector(s)?.getAttribute('aria-label'),
          MENU_BUTTON,
        ),
      ).toBe(header.closeMenu)
      await driver.click(MENU_BUTTON)
      await waitFor(driver, 'the menu is closed', isHidden, MOBILE_MENU)

      await driver.click(MENU_BUTTON)
      await waitFor(driver, 'the menu is open again', isShown, MOBILE_MENU)
      const link = navLinks[0]!
      await driver.click(`${MOBILE_MENU} a[href="${link.href}"]`)
      await waitFor(driver, 'choosing a link closes the menu', isHidden, MOBILE_MENU)
      await waitFor(driver, 'the section is in view', topIsInView, `${link.href} h2`)
      await waitFor(driver, 'focus moved to the section', activeElementMatches, link.href)
    })
  } else {
    it('a header link scrolls to its section and moves focus there', async () => {
      const driver = getDriver()
      await visitHome(driver)
      expect(await driver.evaluate(isShown, MENU_BUTTON), 'menu button on a desktop').toBe(false)
      const link = navLinks[1]!
      await driver.click(`nav[aria-label="${header.navLabel}"] a[href="${link.href}"]`)
      await waitFor(driver, 'the section is in view', topIsInView, `${link.href} h2`)
      await waitFor(driver, 'focus moved to the section', activeElementMatches, link.href)
    })
  }

  it('the video popup opens, closes on the overlay and on Escape, and gives focus back', async () => {
    const driver = getDriver()
    await visitHome(driver)
    const opener = await markButtonByText(driver, heroActions.videoCta, 'video-opener')
    const isOpenModal = () => {
      const dialog = document.querySelector('dialog[open]')
      return dialog?.matches(':modal') === true && dialog.querySelector('iframe') !== null
    }
    const isClosedWithFocusOn = (selector: string) =>
      document.querySelector('dialog[open]') === null &&
      document.activeElement === document.querySelector(selector)

    await driver.click(opener)
    await waitFor(driver, 'the popup is open as a modal with the player', isOpenModal)
    // The top-left corner is the overlay on every screen size.
    await driver.clickAt(5, 5)
    await waitFor(driver, 'a click on the overlay closed it', isClosedWithFocusOn, opener)

    await driver.click(opener)
    await waitFor(driver, 'the popup is open again', isOpenModal)
    await driver.press('Escape')
    await waitFor(driver, 'Escape closed it', isClosedWithFocusOn, opener)
  })

  it('the carousel turns by itself, follows its arrows and dots, and its pause button stops it', async () => {
    const driver = getDriver()
    await visitHome(driver)
    const { controls } = carousel
    const total = carousel.slides.length
    // Pointer and focus rest on the title, away from the carousel, which pauses under them.
    await driver.click('h1')
    expect(await currentSlideLabel(driver)).toBe(controls.slideOf(1, total))
    await waitFor(
      driver,
      'the carousel turned by itself',
      (s, label) => document.querySelector(s)?.getAttribute('aria-label') === label,
      CURRENT_SLIDE,
      controls.slideOf(2, total),
    )

    const arrowsShown = await driver.evaluate(isShown, button(controls.next))
    expect(arrowsShown, 'arrows are a desktop affordance').toBe(!isPhone)
    if (!isPhone) {
      await driver.click(button(controls.next))
      expect(await currentSlideLabel(driver)).toBe(controls.slideOf(3, total))
      await driver.click(button(controls.previous))
      await driver.click(button(controls.previous))
      expect(await currentSlideLabel(driver)).toBe(controls.slideOf(1, total))
    }
    for (const n of [4, 2]) {
      await driver.click(button(controls.goTo(n)))
      expect(await currentSlideLabel(driver)).toBe(controls.slideOf(n, total))
    }

    await driver.click(button(controls.pause))
    expect(await driver.evaluate(isShown, button(controls.play))).toBe(true)
    await driver.click('h1')
    const pausedAt = await currentSlideLabel(driver)
    await sleep(ROTATION_MS + 1000)
    expect(await currentSlideLabel(driver), 'paused by the visitor').toBe(pausedAt)

    // It was the pause button that held it: playing again turns it.
    await driver.click(button(controls.play))
    await driver.click('h1')
    await waitFor(
      driver,
      'the carousel turns again after play',
      (s, label) => document.querySelector(s)?.getAttribute('aria-label') !== label,
      CURRENT_SLIDE,
      pausedAt,
    )
  })

  it('the demo form asks for each required field before sending', async () => {
    const driver = getDriver()
    await visitHomeAfresh(driver)
    await driver.click(SUBMIT)
    await waitFor(
      driver,
      'the browser points at the empty name',
      activeElementMatches,
      '[name="user_name"]',
    )
    const check = await driver.evaluate((s) => {
      const form = document.querySelector<HTMLFormElement>(s)!
      const name = form.elements.namedItem('user_name') as HTMLInputElement
      return {
        valid: form.checkValidity(),
        missing: name.validity.valueMissing,
        says: name.validationMessage,
      }
    }, FORM)
    expect(check.valid).toBe(false)
    expect(check.missing).toBe(true)
    expect(check.says, "the browser's own message").not.toBe('')

    await driver.type(`${FORM} [name="user_name"]`, 'Ana López')
    await driver.click(SUBMIT)
    await waitFor(
      driver,
      'the browser points at the empty e-mail',
      activeElementMatches,
      '[name="user_email"]',
    )
    expect(await driver.evaluate((s) => document.querySelector(s) === null, OPEN_ALERT)).toBe(true)
  })

  it(`the demo form sends to the server's intake and says '${demoForm.alert.successTitle}'`, async () => {
    const driver = getDriver()
    await visitHomeAfresh(driver)
    const email = uniqueEmail('exito', driver.engine)
    const values = await fillDemoForm(driver, email)
    await submitAndWaitForAlert(driver)
    expect(await textOf(driver, `${OPEN_ALERT} h2`)).toBe(demoForm.alert.successTitle)
    expect(await textOf(driver, OPEN_ALERT)).toContain(demoForm.alert.successText)
    const stored = await storedRequests(email)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.params).toMatchObject(values)
    await closeAlert(driver)
  })

  it(`the demo form says '${demoForm.alert.errorTitle}' with the server's text when it cannot store`, async () => {
    const driver = getDriver()
    await visitHomeAfresh(driver)
    // The server finds its disk full for this domain alone (testing/full-disk.mjs).
    const email = uniqueEmail('disco-lleno', driver.engine).replace(/@.*$/, FULL_DISK_DOMAIN)
    await fillDemoForm(driver, email)
    await submitAndWaitForAlert(driver)
    expect(await textOf(driver, `${OPEN_ALERT} h2`)).toBe(demoForm.alert.errorTitle)
    expect(await textOf(driver, OPEN_ALERT)).toContain(
      // Our own door's sentence (decision 020): in Spanish, as the visitor reads it.
      `${demoForm.alert.errorPrefix}${doorRefusals.storeFull}`,
    )
    expect(await storedRequests(email)).toHaveLength(0)
    await closeAlert(driver)
  })

  it('/tyc renders with its table of contents, whose links reach their sections', async () => {
    const driver = getDriver()
    await driver.goto('/tyc')
    expect(await textOf(driver, 'h1')).toBe(termsPage.title)
    const sections = [...legalTexts.terms.sections, ...legalTexts.privacy.sections]
    const toc = 'nav[aria-labelledby="indice-titulo"]'
    const targets = await driver.evaluate(
      (s) => [...document.querySelectorAll(`${s} a`)].map((link) => link.getAttribute('href')),
      toc,
    )
    expect(targets).toEqual(sections.map((section) => `#${section.id}`))
    expect(await driver.evaluate(scrollsSideways), 'sideways scroll').toBe(false)
    await saveScreenshot(driver, viewport, 'tyc')

    const last = sections.at(-1)!
    await driver.click(`${toc} a[href="#${last.id}"]`)
    await waitFor(driver, 'the last section is in view', topIsInView, `#${last.id}`)
    expect(await driver.evaluate(() => location.hash)).toBe(`#${last.id}`)
  })

  it('an unknown path ends on the home page', async () => {
    const driver = getDriver()
    // Hydrated before the next journey leaves it (see visitHomeAfresh).
    await visitHome(driver, '/precios/ofertas')
    expect(await driver.evaluate(() => location.pathname)).toBe('/')
    expect(await textOf(driver, 'h1')).toBe(hero.title)
  })
}

/** A start as the picker and the booking page post it: RFC 3339 with the zone's offset. */
const LOCAL_START = /^\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d$/

/**
 * The visitor's journey to a booked demo against the real booking service (issue 44), with and
 * without JavaScript, at one width: the picker's layout at both widths is the Chromium suite's
 * (e2e/booking-picker.spec.ts), as is Chromium's own journey (e2e/booking-journey.spec.ts).
 */
function bookingJourneys(engine: Engine, getDriver: () => EngineDriver, launch: LaunchEngine) {
  const viewport = VIEWPORTS[0]
  describe(`a demo booked from the rep’s calendar, ${viewport.name} ${viewport.width} px`, () => {
    let site: BookingSite | undefined
    const getSite = () => {
      if (!site) throw new Error('the booking server did not start')
      return site
    }

    beforeAll(async () => {
      site = await startBookingSite()
      await getDriver().setViewport(viewport.width, viewport.height)
    })

    afterAll(async () => {
      await site?.stop()
    })

    it(`with JavaScript: the rep's free times follow '${demoForm.alert.successTitle}', and one is booked`, async () => {
      const driver = getDriver()
      await visitHomeAfresh(driver, `${getSite().origin}/`)
      const email = uniqueEmail('agenda', engine)
      await fillDemoForm(driver, email)
      await submitAndWaitForAlert(driver)
      expect(await textOf(driver, `${OPEN_ALERT} h2`)).toBe(demoForm.alert.successTitle)
      const times = `${OPEN_ALERT} input[name="start"]`
      await waitFor(
        driver,
        'the free times appear',
        (s) => document.querySelector(s) !== null,
        times,
      )
      // Each value is its start, with the offset this engine's own clock gives that instant.
      const offered = await driver.evaluate(
        (s) =>
          [...document.querySelectorAll<HTMLInputElement>(s)].map((radio) => {
            const minutes = -new Date(radio.value).getTimezoneOffset()
            const sign = minutes < 0 ? '-' : '+'
            const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')
            const rest = String(Math.abs(minutes) % 60).padStart(2, '0')
            return { value: radio.value, offset: `${sign}${hours}:${rest}` }
          }),
        times,
      )
      for (const { value, offset } of offered) {
        expect(value).toMatch(LOCAL_START)
        expect(value.endsWith(offset), value).toBe(true)
      }
      const days = await driver.evaluate(
        (s) => [...document.querySelectorAll(s)].map((legend) => legend.textContent),
        `${OPEN_ALERT} fieldset legend`,
      )
      // Five working days of the rep's, however the visitor's zone splits them.
      expect(days.length).toBeGreaterThanOrEqual(5)
      for (const day of days) expect(day).toMatch(/^[a-záéíóúñ]+ \d{1,2} de [a-z]+$/)

      const start = offered[0]!.value
      await driver.click(`${times}[value="${start}"]`)
      await driver.click(`${OPEN_ALERT} [data-booking] button[type="submit"]`)
      await waitFor(
        driver,
        'the meeting is stated',
        (s) => document.querySelector(s) !== null,
        `${OPEN_ALERT} [data-booking="booked"]`,
      )
      expect(await textOf(driver, `${OPEN_ALERT} [data-booking]`)).toContain(BOOKING_REP.name)
      expect(
        await driver.evaluate(
          (s) => document.querySelector(s)?.getAttribute('href'),
          `${OPEN_ALERT} [data-booking] a`,
        ),
      ).toBe(BOOKING_REP.room)
      expect(await getSite().meetingsOf(email)).toEqual([
        { start: Date.parse(start), rep: BOOKING_REP.email },
      ])
      await closeAlert(driver)
    })

    it('without JavaScript: the form lands on the booking page, which books with a plain post', async () => {
      const driver = await launch(getSite().origin, { javaScript: false })
      try {
        await driver.setViewport(viewport.width, viewport.height)
        await driver.goto('/')
        const email = uniqueEmail('agenda-sin-js', engine)
        await fillDemoForm(driver, email)
        await driver.clickToNavigate(SUBMIT)
        expect(await driver.evaluate(() => location.pathname)).toMatch(/^\/reserva\/[\w-]+$/)
        expect(await textOf(driver, 'h1')).toBe(bookingPage.sentTitle)
        const start = await driver.evaluate(
          () => document.querySelector<HTMLInputElement>('input[type="radio"]')?.value ?? '',
        )
        expect(start).toMatch(LOCAL_START)
        await driver.click(`input[type="radio"][name="start"][value="${start}"]`)
        await driver.clickToNavigate('form.times button[type="submit"]')
        expect(await textOf(driver, 'h1')).toBe(bookingPage.meetingTitle)
        expect(await textOf(driver, 'main')).toContain(BOOKING_REP.name)
        expect(await getSite().meetingsOf(email)).toEqual([
          { start: Date.parse(start), rep: BOOKING_REP.email },
        ])
      } finally {
        await driver.close()
      }
    })
  })
}

/**
 * Every journey, at a desktop and at a phone-sized window, in one engine; with `booking`, the
 * booking journey against the real service too.
 */
export function describeJourneys(
  engine: Engine,
  launch: LaunchEngine,
  { booking = false }: { booking?: boolean } = {},
): void {
  describe(engine, () => {
    let driver: EngineDriver | undefined
    const getDriver = () => {
      if (!driver) throw new Error(`${engine} did not start`)
      return driver
    }

    beforeAll(async () => {
      driver = await launch(inject('siteOrigin'))
    })

    afterAll(async () => {
      await driver?.close()
    })

    // A journey that worked but made the page report an error still fails.
    afterEach(async () => {
      if (driver) expect(await driver.takeScriptErrors(), 'script errors').toEqual([])
    })

    for (const viewport of VIEWPORTS) {
      describe(`${viewport.name} ${viewport.width} px`, () => {
        beforeAll(async () => {
          await getDriver().setViewport(viewport.width, viewport.height)
        })
        journeysAt(getDriver, viewport)
      })
    }
    if (booking) bookingJourneys(engine, getDriver, launch)
  })
}
