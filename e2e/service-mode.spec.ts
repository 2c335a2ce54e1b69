import { demoForm } from '../testing/content'
import { readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { demoRequest, expect, gotoHome, sendDemoRequest, test, uniqueEmail } from './fixtures'
import { onOneLayout } from './own-server'
import { ConfiguredBuild } from './configured-build'

/**
 * A build made with the e-mail service configured: the page talks to that service (here a
 * stand-in on another origin, as the real one is) and the server's own intake is off.
 */

type Received = { url: string; body: Record<string, unknown> }

test.describe('a build configured for the e-mail service', () => {
  // A ceiling, not a timing: the hook below makes a whole production build beside the other
  // worker's tests.
  onOneLayout('one layout is enough for the wiring', 240_000)

  let api: Server
  let apiOrigin = ''
  const site = new ConfiguredBuild('service')
  let origin = ''
  const received: Received[] = []
  let answer = { status: 200, body: 'OK' }

  test.beforeAll(async () => {
    api = createServer((request, response) => {
      response.setHeader('access-control-allow-origin', '*')
      response.setHeader('access-control-allow-headers', 'content-type')
      if (request.method === 'OPTIONS') return void response.writeHead(204).end()
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        received.push({ url: request.url ?? '', body: JSON.parse(body) as Record<string, unknown> })
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body)
      })
    })
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
    apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`

    await site.start({
      VITE_EMAILJS_PUBLIC_KEY: 'public-key-123',
      VITE_EMAILJS_SERVICE_ID: 'service_sales',
      VITE_EMAILJS_TEMPLATE_ID: 'template_demo',
      VITE_EMAILJS_API_ORIGIN: apiOrigin,
    })
    origin = site.origin
  })

  test.afterAll(async () => {
    await site.stop()
    if (api) await new Promise<void>((resolve) => api.close(() => resolve()))
  })

  test('carries the e-mail SDK, as a chunk of its own, and no sender to our own door nor booking picker', () => {
    const scripts = readdirSync(join(site.outDir, 'assets')).filter((file) => file.endsWith('.js'))
    expect(scripts.filter((file) => /^email-sdk-.+\.js$/.test(file))).toHaveLength(1)
    expect(scripts.filter((file) => file.startsWith('send-to-own-server-'))).toEqual([])
    // The booking lives on our own server: no picker here (decision 027).
    expect(scripts.filter((file) => file.startsWith('booking-picker-'))).toEqual([])
  })

  test('sends the request to the configured service with its ids and key', async ({ page }) => {
    await gotoHome(page, `${origin}/`)
    const email = uniqueEmail('servicio')
    await sendDemoRequest(page, email)
    await expect(page.getByRole('alertdialog')).toContainText(demoForm.alert.successText)
    const sent = received.find(
      (request) => (request.body.template_params as Record<string, string>).user_email === email,
    )
    expect(sent?.url).toBe('/api/v1.0/email/send')
    expect(sent?.body).toMatchObject({
      lib_version: '4.4.1',
      user_id: 'public-key-123',
      service_id: 'service_sales',
      template_id: 'template_demo',
      template_params: demoRequest(email),
    })
  })

  test("shows the service's own error text", async ({ page }) => {
    answer = { status: 400, body: 'The template ID is invalid' }
    await gotoHome(page, `${origin}/`)
    await sendDemoRequest(page, uniqueEmail('servicio-error'))
    await expect(page.getByRole('alertdialog')).toContainText(
      `${demoForm.alert.errorPrefix}The template ID is invalid`,
    )
    answer = { status: 200, body: 'OK' }
  })

  test('turns its own intake off and lets the CSP reach the service', async ({ request }) => {
    const response = await request.post(`${origin}/api/v1.0/email/send`, {
      data: {},
    })
    expect(response.status()).toBe(404)
    const page = await request.get(`${origin}/`)
    expect(page.headers()['content-security-policy']).toContain(`connect-src 'self' ${apiOrigin}`)
  })
})
