// The answer to a demo request is lost after the request reached our server (a mobile
// connection dropped on the way back): the page tries again with the same Idempotency-Key,
// the visitor sees one success, the store holds one request and the sales inbox one mail.
// A server of its own, with a real SMTP peer, on the suite's build.
import { DOOR_PATH } from '../src/contract/demo-request-fields'
import { startSmtpPeer, type SmtpPeer } from '../testing/server/delivery-peers'
import { storedRequests } from '../testing/server/store'
import type { RunningSite } from '../testing/site'
import { onOneLayout, startOwnServer } from './own-server'
import {
  alertDialog,
  expect,
  gotoHome,
  sendDemoRequest,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures'

const DATA_DIR = 'test-results/outbox-lost-answer'

test.describe('when the answer to a demo request is lost', () => {
  onOneLayout('one layout is enough for the network', 60_000)

  let smtp: SmtpPeer
  let site: RunningSite

  test.beforeAll(async () => {
    smtp = await startSmtpPeer()
    site = await startOwnServer(DATA_DIR, {
      SMTP_URL: smtp.url,
      LEADS_MAIL_TO: 'ventas@gaspre.mx',
      LEADS_MAIL_FROM: 'avisos@gaspre.mx',
    })
  })

  test.afterAll(async () => {
    await site?.stop()
    await smtp?.close()
  })

  test('the page tries again with the same key: one success, one stored request, one mail', async ({
    page,
  }) => {
    const keys: string[] = []
    let first = true
    await page.route(
      (url) => url.pathname === DOOR_PATH,
      async (route) => {
        keys.push(route.request().headers()['idempotency-key'] ?? '')
        if (!first) return route.fallback()
        first = false
        // The request reaches the server and is stored; its answer never reaches the page.
        const answer = await route.fetch()
        expect(answer.status()).toBe(200)
        await route.abort('connectionreset')
      },
    )
    await gotoHome(page, `${site.origin}/`)
    const email = uniqueEmail('respuesta-perdida')
    await sendDemoRequest(page, email)
    await expect(submitButton(page)).toHaveAccessibleName('Enviando…')
    await expect(alertDialog(page).getByRole('heading')).toHaveText('¡Éxito!')
    await expect(alertDialog(page)).toHaveCount(1)

    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
    const stored = (await storedRequests({ dataDir: DATA_DIR })).filter(
      (request) => request.params.user_email === email,
    )
    expect(stored).toHaveLength(1)
    expect(stored[0]!.deliveries).toHaveLength(1)
    await expect
      .poll(async () =>
        (await storedRequests({ dataDir: DATA_DIR }))
          .filter((request) => request.params.user_email === email)
          .map((request) => request.deliveries.map((delivery) => delivery.state)),
      )
      .toEqual([['delivered']])
    expect(smtp.mails.filter((mail) => (mail.text ?? '').includes(email))).toHaveLength(1)
  })
})
