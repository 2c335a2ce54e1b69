import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { OUTBOX_DIR } from '../playwright.config'
import { DOOR_PATH } from '../src/contract/demo-request-fields'
import { demoForm } from '../testing/content'
import {
  alertDialog,
  clearFaults,
  demoRequest,
  expect,
  fillDemoForm,
  gotoHome,
  holdClock,
  queueFaults,
  sendDemoRequest,
  storedRequests,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures'

test.describe('demo request form', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test('has the five fields under their names, types and required flags', async ({ page }) => {
    await gotoHome(page)
    const form = page.locator('#solicitar-demo-gratis form').first()
    await expect(form.getByLabel('Nombre completo*')).toHaveAttribute('name', 'user_name')
    await expect(form.locator('[name="user_email"]')).toHaveAttribute('type', 'email')
    await expect(form.locator('[name="user_phone"]')).toHaveAttribute('type', 'tel')
    for (const name of ['user_name', 'user_email', 'user_phone', 'user_group']) {
      await expect(form.locator(`[name="${name}"]`)).toHaveAttribute('required', '')
    }
    const message = form.locator('[name="message"]')
    await expect(message).not.toHaveAttribute('required')
    expect(await message.evaluate((element) => element.tagName)).toBe('TEXTAREA')
    await expect(form.locator('input[type="hidden"][name="contact_number"]')).toHaveValue(
      /^\d{1,5}$/,
    )
  })

  test("a request sent from the page is listed by npm run outbox in the suite's DATA_DIR", async ({
    page,
  }) => {
    test.skip(test.info().project.name !== 'desktop', 'one run of the command is enough')
    // A ceiling for starting npm and the command on a loaded machine, not a timing.
    test.slow()
    await gotoHome(page)
    const email = uniqueEmail('listada')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    const [stored] = await storedRequests(email)
    // Where the sales team looks: the production store, read by its own command.
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'outbox', '--', '--json'],
      { env: { ...process.env, DATA_DIR: OUTBOX_DIR }, encoding: 'utf8' },
    )
    const listed = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { id: string; params: Record<string, string> })
    expect(listed.filter((request) => request.params.user_email === email)).toEqual([
      expect.objectContaining({ id: stored!.id, params: stored!.params }),
    ])
  })

  test('sends the request once, says so, stores it with every field, and clears the form', async ({
    page,
  }) => {
    await gotoHome(page)
    const email = uniqueEmail('exito')
    const values = demoRequest(email)
    await fillDemoForm(page, values)
    const contactNumber = await page.locator('[name="contact_number"]').inputValue()
    await submitButton(page).click()
    const alert = alertDialog(page)
    await expect(alert).toBeVisible()
    await expect(alert.getByRole('heading')).toHaveText('¡Éxito!')
    await expect(alert).toContainText('El mensaje se envió correctamente.')
    const stored = await storedRequests(email)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.params).toMatchObject({ ...values, contact_number: contactNumber })
    await alert.getByRole('button', { name: 'Aceptar' }).click()
    await expect(alert).toBeHidden()
    await expect(submitButton(page)).toBeFocused()
    for (const name of Object.keys(values))
      await expect(page.locator(`[name="${name}"]`)).toHaveValue('')
    await page.reload()
    await expect(page.locator('[name="user_name"]')).toHaveValue('')
  })

  for (const [status, body] of [
    [403, 'Forbidden'],
    [412, 'The template ID is invalid. To find this ID, visit the dashboard'],
    [429, 'Too Many Requests'],
    [451, 'Unavailable For Headless Browser'],
    [500, 'Internal server error while sending'],
  ] as const) {
    test(`a ${status} answer shows its text and keeps what was typed`, async ({ page }) => {
      await gotoHome(page)
      const email = uniqueEmail(`error-${status}`)
      await queueFaults(page, email, [{ status, body }])
      const values = demoRequest(email)
      await fillDemoForm(page, values)
      await submitButton(page).click()
      const alert = alertDialog(page)
      await expect(alert.getByRole('heading')).toHaveText('¡Error!')
      await expect(alert).toContainText(`${demoForm.alert.errorPrefix}${body}`)
      await alert.getByRole('button', { name: 'Aceptar' }).click()
      for (const [name, value] of Object.entries(values))
        await expect(page.locator(`[name="${name}"]`)).toHaveValue(value)
      expect(await storedRequests(email)).toHaveLength(0)
    })
  }

  test('a dropped connection is retried while the visitor sees it sending; when every try is lost it is a network error, and the same button retries', async ({
    page,
  }) => {
    await gotoHome(page)
    const email = uniqueEmail('caida')
    // Every try of the first send is dropped: the page's own retries (send-to-own-server.ts).
    await queueFaults(
      page,
      email,
      Array.from({ length: 4 }, () => ({ drop: true as const })),
    )
    await sendDemoRequest(page, email)
    await expect(submitButton(page)).toHaveAccessibleName('Enviando…')
    await expect(alertDialog(page)).toBeHidden()
    await expect(alertDialog(page)).toContainText(`${demoForm.alert.errorPrefix}Network Error`, {
      timeout: 15_000,
    })
    await alertDialog(page).getByRole('button', { name: 'Aceptar' }).click()
    clearFaults(page, email)
    await submitButton(page).click()
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    expect(await storedRequests(email)).toHaveLength(1)
  })

  test('an answer slower than the timeout is tried again, and only when every try is late ends in a clear error', async ({
    page,
  }) => {
    await holdClock(page)
    // Counted in the page as each try calls fetch, so a count read after a step of the clock is
    // exact (a request event would reach the test a moment later, while the clock moves on).
    await page.addInitScript((door) => {
      const send = window.fetch.bind(window)
      let count = 0
      Object.defineProperty(window, 'doorTries', { get: () => count })
      window.fetch = (input, init) => {
        if (input === door) count++
        return send(input, init)
      }
    }, DOOR_PATH)
    await gotoHome(page)
    const email = uniqueEmail('lento')
    const late = { delayMs: 30_000, status: 503, body: 'late' }
    await queueFaults(page, email, [late, late, late, late])
    const tries = () => page.evaluate(() => (window as unknown as { doorTries: number }).doorTries)
    // The clock moves on in steps until the page has acted: a try's timer, or the pause before
    // the next, is set a moment after the step that let it run.
    const runClockUntil = (done: () => boolean | Promise<boolean>) =>
      expect
        .poll(async () => (await done()) || (await page.clock.runFor(2_500), false), {
          intervals: [50],
          timeout: 30_000,
        })
        .toBe(true)
    await sendDemoRequest(page, email)
    await expect(submitButton(page)).toHaveAccessibleName('Enviando…')
    await expect(submitButton(page)).toHaveAttribute('aria-disabled', 'true')
    await runClockUntil(async () => (await tries()) === 1)
    // Each try waits 15 s, then the page waits 1, 2 and 4 s before the next: still sending.
    for (const next of [2, 3, 4]) {
      await page.clock.runFor(12_000)
      expect(await tries()).toBe(next - 1)
      await runClockUntil(async () => (await tries()) === next)
      await expect(submitButton(page)).toHaveAccessibleName('Enviando…')
      await expect(alertDialog(page)).toBeHidden()
    }
    await page.clock.runFor(12_000)
    await expect(alertDialog(page)).toBeHidden()
    await runClockUntil(() => alertDialog(page).isVisible())
    await expect(alertDialog(page)).toContainText(
      `${demoForm.alert.errorPrefix}el servicio de envío no respondió en 15 segundos`,
    )
    await expect(submitButton(page)).toHaveAccessibleName('Enviar solicitud')
  })

  test('a double click sends one request', async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('doble')
    await queueFaults(page, email, [{ delayMs: 800 }])
    await fillDemoForm(page, demoRequest(email))
    await submitButton(page).dblclick()
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    expect(await storedRequests(email)).toHaveLength(1)
  })

  test('a reload keeps the draft until it is sent', async ({ page }) => {
    await gotoHome(page)
    const values = demoRequest(uniqueEmail('borrador'))
    await fillDemoForm(page, values)
    await page.reload()
    await gotoHome(page)
    for (const [name, value] of Object.entries(values))
      await expect(page.locator(`[name="${name}"]`)).toHaveValue(value)
  })

  test('a filled honeypot pretends success and stores nothing', async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('bot')
    await fillDemoForm(page, demoRequest(email))
    await page.locator('[name="website"]').fill('https://spam.example')
    await submitButton(page).click()
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    expect(await storedRequests(email)).toHaveLength(0)
  })

  test('the honeypot is out of reach of people and assistive technology', async ({ page }) => {
    await gotoHome(page)
    const trap = page.locator('[name="website"]')
    await expect(trap).toHaveAttribute('tabindex', '-1')
    expect(await trap.evaluate((input) => input.closest('[aria-hidden="true"]') !== null)).toBe(
      true,
    )
    await expect(trap).not.toBeInViewport()
  })

  test('a second request within the rate limit never leaves the browser', async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('limite')
    await sendDemoRequest(page, email)
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    await alertDialog(page).getByRole('button', { name: 'Aceptar' }).click()
    const sends: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) sends.push(request.url())
    })
    await sendDemoRequest(page, email)
    await expect(alertDialog(page)).toContainText(`${demoForm.alert.errorPrefix}Too Many Requests`)
    expect(sends).toEqual([])
    expect(await storedRequests(email)).toHaveLength(1)
  })
})

test.describe('validation', () => {
  // What the form checks and sends, and what the server answers, is the same at any width:
  // one layout runs it (the phone's own layout is covered by the accessibility and content
  // specs).
  test.skip(({ isMobile }) => isMobile, 'one layout is enough for what is sent')

  test('explains each problem next to its field and sends nothing', async ({ page }) => {
    await gotoHome(page)
    const email = uniqueEmail('validacion')
    await sendDemoRequest(page, email, { user_name: '    ', user_phone: '12ab' })
    const name = page.locator('[name="user_name"]')
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    await expect(name).toBeFocused()
    await expect(name).toHaveAccessibleDescription(/Escribe tu nombre completo/)
    const phone = page.locator('[name="user_phone"]')
    await expect(phone).toHaveAttribute('aria-invalid', 'true')
    await expect(phone).toHaveAccessibleDescription(/Revisa el teléfono/)
    await expect(page.getByRole('status')).toContainText('Revisa los campos marcados')
    await expect(alertDialog(page)).toHaveCount(0)
    await name.fill('Ana López')
    await expect(name).not.toHaveAttribute('aria-invalid')
    expect(await storedRequests(email)).toHaveLength(0)
  })

  test('an empty form is stopped by the required checks', async ({ page }) => {
    await gotoHome(page)
    await submitButton(page).click()
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(4)
    await expect(page.locator('[name="user_name"]')).toBeFocused()
    await expect(alertDialog(page)).toHaveCount(0)
  })

  test('a mistyped e-mail is explained, and the message follows the correction', async ({
    page,
  }) => {
    await gotoHome(page)
    await sendDemoRequest(page, 'ana@grupo', { user_phone: '12' })
    const emailField = page.locator('[name="user_email"]')
    await expect(emailField).toHaveAccessibleDescription(/nombre@empresa\.com/)
    await expect(emailField).toBeFocused()
    await emailField.fill('ana@grupo.mx')
    await expect(emailField).not.toHaveAttribute('aria-invalid')
    await expect(page.locator('[name="user_phone"]')).toHaveAttribute('aria-invalid', 'true')
  })

  test('an address the browser refuses is explained too, never refused without a word', async ({
    page,
  }) => {
    await gotoHome(page)
    // The browser's e-mail check refuses "(" before the "@", where our own rule lets it pass.
    const email = `ana(x)${uniqueEmail('navegador')}`
    await sendDemoRequest(page, email)
    const emailField = page.locator('[name="user_email"]')
    await expect(emailField).toHaveAttribute('aria-invalid', 'true')
    await expect(emailField).toHaveAccessibleDescription(/nombre@empresa\.com/)
    await expect(emailField).toBeFocused()
    await expect(page.getByRole('status')).toContainText('Revisa los campos marcados')
    await expect(alertDialog(page)).toHaveCount(0)
    expect(await storedRequests(email)).toHaveLength(0)
  })

  for (const phone of ['55 1234 5678', '+34 612 345 678', '+57 (300) 123-4567', '+506 8888-8888']) {
    test(`accepts the phone number ${phone}`, async ({ page }) => {
      await gotoHome(page)
      const email = uniqueEmail('telefono')
      await sendDemoRequest(page, email, { user_phone: phone })
      await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
      expect((await storedRequests(email))[0]!.params.user_phone).toBe(phone)
    })
  }
})

test('a demo request can be filled and sent with the keyboard alone', async ({
  page,
  isMobile,
}) => {
  test.skip(isMobile, 'keyboard journey on the desktop layout')
  await gotoHome(page)
  const email = uniqueEmail('teclado')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Saltar al contenido' })).toBeFocused()
  // Header: logo, three links; the third leads to the form.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab')
  await expect(
    page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Contacto' }),
  ).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('#solicitar-demo-gratis')).toBeFocused()
  const values = demoRequest(email)
  for (const name of ['user_name', 'user_email', 'user_phone', 'user_group', 'message'] as const) {
    await page.keyboard.press('Tab')
    await expect(page.locator(`[name="${name}"]`)).toBeFocused()
    await page.keyboard.type(values[name])
  }
  await page.keyboard.press('Tab')
  await expect(submitButton(page)).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(alertDialog(page).getByRole('button', { name: 'Aceptar' })).toBeFocused()
  await expect(alertDialog(page)).toContainText('El mensaje se envió correctamente.')
  await page.keyboard.press('Enter')
  await expect(alertDialog(page)).toBeHidden()
  await expect(submitButton(page)).toBeFocused()
  expect(await storedRequests(email)).toHaveLength(1)
})
