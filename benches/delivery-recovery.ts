// `npm run bench:delivery`: a channel that fails and recovers, with the worker's production
// timings (no test shortcuts). For each outage (30 s and 10 min by default; DELIVERY_BENCH_OUTAGES
// in seconds, comma-separated), 200 demo requests arrive while the mail server refuses the login
// (SMTP 535, as after a password rotation); then it accepts again. It prints, and asserts nothing
// about time (tests never do):
//   - the webhook's deliveries per second meanwhile, the working channel;
//   - how many probes the mail channel got during the outage (logins tried);
//   - the time from the mail server's recovery to the last held request mailed, and how many
//     mails went twice (none expected).
import { Agent } from 'node:http'
import type { DeliveryConfig } from '../server/settings/config.js'
import {
  WEBHOOK_SECRET,
  startSmtpPeer,
  startWebhookPeer,
} from '../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { waitUntil } from '../testing/wait-until.js'
import { startLeadServer } from './lead-server.js'

const OUTAGES_S = (process.env.DELIVERY_BENCH_OUTAGES ?? '30,600').split(',').map(Number)
const REQUESTS = 200
const SENDERS = 10
const agent = new Agent({ keepAlive: true, maxSockets: SENDERS })
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

const rows: string[][] = []

for (const outageS of OUTAGES_S) {
  const smtp = await startSmtpPeer()
  const webhook = await startWebhookPeer()
  const delivery: DeliveryConfig = {
    email: { smtpUrl: smtp.url, to: ['ventas@gaspre.mx'], from: 'avisos@gaspre.mx' },
    webhook: { url: webhook.url, secret: WEBHOOK_SECRET },
    timeZone: 'America/Mexico_City',
    alertAfterMs: 600_000,
  }
  const server = await startLeadServer(delivery)
  const { url } = server

  smtp.authFails = true
  const outageStart = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < REQUESTS) {
        const n = next++
        await sendDemoRequest(url, { ...DEMO_PARAMS, contact_number: String(n) }, { agent })
      }
    }),
  )
  await waitUntil(() => webhook.received.length >= REQUESTS, {
    timeoutMs: 120_000,
    what: 'the webhook to take every request',
  })
  const webhookSeconds = (performance.now() - outageStart) / 1000
  const left = outageS * 1000 - (performance.now() - outageStart)
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
  const probes = smtp.logins

  smtp.authFails = false
  const recovered = performance.now()
  await waitUntil(() => new Set(smtp.mails.map((mail) => mail.messageId)).size >= REQUESTS, {
    timeoutMs: 10 * 60_000,
    what: 'every held request to be mailed',
  })
  const drained = performance.now() - recovered
  const twice = smtp.mails.length - new Set(smtp.mails.map((mail) => mail.messageId)).size
  rows.push([
    `${outageS} s`,
    `${(REQUESTS / webhookSeconds).toFixed(0)}/s`,
    String(probes),
    seconds(drained),
    String(twice),
  ])

  await server.close()
  await smtp.close()
  await webhook.close()
}
agent.destroy()

console.log(`\nA mail channel held by SMTP 535 with ${REQUESTS} requests waiting (SQLite):\n`)
const header = [
  'outage',
  'webhook meanwhile',
  'probes during outage',
  'recovery → last mail',
  'mailed twice',
]
const widths = header.map((title, i) =>
  Math.max(title.length, ...rows.map((row) => row[i]!.length)),
)
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')
console.log(line(header))
for (const row of rows) console.log(line(row))
