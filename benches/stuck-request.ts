// `npm run bench:stuck`: the delay one stuck request adds to the others, with the worker's
// production timings (no test shortcuts). A CRM webhook answers 500 to one request's body only
// (its parser fails on one name) and 2xx to every other. That request is sent first, and once
// it has failed (the channel is held: at first sight a 500 is the channel's), REQUESTS others
// follow, one every SPACING_MS. It prints, and asserts nothing about time (tests never do):
//   - how many of the others the webhook took within WAIT_S seconds;
//   - the delay of each from its send to its post reaching the receiver: median and largest;
//   - how many times the stuck one was tried meanwhile.
import { startLeadServer } from './lead-server.js'
import { WEBHOOK_SECRET, startWebhookPeer } from '../testing/server/delivery-peers.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { waitUntil } from '../testing/wait-until.js'

const REQUESTS = 20
const SPACING_MS = 250
const WAIT_S = Number(process.env.STUCK_BENCH_WAIT_S ?? 90)
const STUCK = '0'

const webhook = await startWebhookPeer()
const took = new Map<string, number>()
let stuckTries = 0
webhook.answer = (body) => {
  const contact = (body.data as { contactNumber?: string } | undefined)?.contactNumber ?? ''
  if (contact === STUCK) {
    stuckTries++
    return 500
  }
  if (body.type === 'demo_request.created' && !took.has(contact))
    took.set(contact, performance.now())
  return undefined
}
const server = await startLeadServer({
  webhook: { url: webhook.url, secret: WEBHOOK_SECRET },
  timeZone: 'America/Mexico_City',
  alertAfterMs: 600_000,
})
const { url } = server

await sendDemoRequest(url, { ...DEMO_PARAMS, contact_number: STUCK })
await waitUntil(() => stuckTries >= 1, {
  timeoutMs: 30_000,
  what: 'the stuck request to fail once',
})
const sentAt = new Map<string, number>()
for (let n = 1; n <= REQUESTS; n++) {
  sentAt.set(String(n), performance.now())
  await sendDemoRequest(url, { ...DEMO_PARAMS, contact_number: String(n) })
  await new Promise((resolve) => setTimeout(resolve, SPACING_MS))
}
const deadline = performance.now() + WAIT_S * 1000
while (took.size < REQUESTS && performance.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100))
}
const delays = [...took].map(([contact, at]) => at - sentAt.get(contact)!).sort((a, b) => a - b)
const ms = (value: number | undefined) => (value === undefined ? '—' : `${Math.round(value)} ms`)

await server.close()
await webhook.close()

console.log(
  `\nOne request a webhook answers 500 to, then ${REQUESTS} others, one every ${SPACING_MS} ms (SQLite):\n`,
)
console.log(`others posted within ${WAIT_S} s: ${took.size} of ${REQUESTS}`)
console.log(
  `delay of the others: median ${ms(delays[Math.floor(delays.length / 2)])}, largest ${ms(delays.at(-1))}`,
)
console.log(`tries of the stuck one meanwhile: ${stuckTries}`)
