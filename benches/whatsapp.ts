// `npm run bench:whatsapp`: how soon the sales rep on duty hears of a request. A lead server
// with the WhatsApp channel (production timings: no test shortcuts) sends each demo request to
// a stand-in of the Cloud API on this machine (testing/server/whatsapp-cloud.ts); the time is
// taken from the visitor's 200 to the stand-in receiving the template message. It prints the
// median, p95 and maximum (and the same from the visitor's POST), and asserts nothing about
// time (tests never do):
//   - one visitor at a time (WHATSAPP_BENCH_REQUESTS, 200 by default);
//   - a burst of 50 visitors at once.
// A negative time means the message reached the stand-in before the visitor's client had read
// its 200: the worker starts on a request as soon as it is stored.
import { Agent } from 'node:http'
import type { DeliveryConfig } from '../server/settings/config.js'
import { phoneRegions } from '../server/settings/phone-number.js'
import { parseWhatsAppRoutes, routeCallingCodes } from '../server/settings/whatsapp-routes.js'
import { parseWorkingHours } from '../server/settings/working-hours.js'
import { DEMO_PARAMS, sendDemoRequest } from '../testing/server/demo-request.js'
import { startLeadServer } from './lead-server.js'
import { STAND_IN_ACCOUNT, startCloudApi } from '../testing/server/whatsapp-cloud.js'
import { waitUntil } from '../testing/wait-until.js'

const SEQUENTIAL = Number(process.env.WHATSAPP_BENCH_REQUESTS ?? 200)
const BURST = 50
const agent = new Agent({ keepAlive: true, maxSockets: BURST })

const cloud = await startCloudApi()
const routes = parseWhatsAppRoutes(
  '+52=+5215511111111,+5215522222222;+34=+34600111222;*=+5215533333333',
)
const regions = phoneRegions(routeCallingCodes(routes))
const delivery: DeliveryConfig = {
  whatsapp: {
    apiUrl: cloud.url,
    ...STAND_IN_ACCOUNT,
    routes,
    escalateAfterMinutes: 15,
    workingHours: parseWorkingHours('lun-vie 09:00-19:00')!,
  },
  phoneRegions: regions,
  timeZone: 'America/Mexico_City',
  alertAfterMs: 600_000,
}
const server = await startLeadServer(delivery)
const { url } = server

/** When each contact number's message reached the stand-in (performance.now()). */
const arrived = new Map<string, number>()
cloud.onMessage = (message) => arrived.set(message.parameters[3]!, message.at)

let contact = 0
/** Sends one request; resolves with its contact number and when its 200 was read. */
async function visit(): Promise<{ contact: string; answered: number; sent: number }> {
  const number = String(contact++)
  const sent = performance.now()
  const response = await sendDemoRequest(url, { ...DEMO_PARAMS, contact_number: number }, { agent })
  if (response.status !== 200) throw new Error(`the server answered ${response.status}`)
  return { contact: number, answered: performance.now(), sent }
}

type Visit = { contact: string; answered: number; sent: number }

/** For each visit, the time from its 200 (or, `fromSend`, from its POST) to its message. */
async function latencies(visits: Visit[], fromSend = false): Promise<number[]> {
  await waitUntil(() => visits.every((each) => arrived.has(each.contact)), {
    timeoutMs: 120_000,
    what: 'every message to reach the stand-in',
  })
  return visits.map((each) => arrived.get(each.contact)! - (fromSend ? each.sent : each.answered))
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
const ms = (value: number) => `${value.toFixed(1)} ms`

function row(name: string, values: number[]): string[] {
  const sorted = [...values].sort((a, b) => a - b)
  return [
    name,
    String(values.length),
    ms(sorted[0]!),
    ms(quantile(sorted, 0.5)),
    ms(quantile(sorted, 0.95)),
    ms(sorted.at(-1)!),
  ]
}

// A few to warm up (JIT, the SQLite file, the connections), not counted.
for (let i = 0; i < 10; i++) await latencies([await visit()])
arrived.clear()

const one: Visit[] = []
for (let i = 0; i < SEQUENTIAL; i++) {
  const visited = await visit()
  one.push(visited)
  // One at a time: the next visitor comes once this message arrived.
  await latencies([visited])
}
const burst = await Promise.all(Array.from({ length: BURST }, () => visit()))
const rows = [
  row('one at a time, from the 200', await latencies(one)),
  row(`${BURST} at once, from the 200`, await latencies(burst)),
  row('one at a time, from the POST', await latencies(one, true)),
  row(`${BURST} at once, from the POST`, await latencies(burst, true)),
]

await server.close()
await cloud.close()
agent.destroy()

console.log(
  "\nFrom the visitor's 200 to the Cloud API stand-in receiving the WhatsApp message (SQLite):\n",
)
const header = ['visitors, measured', 'requests', 'min', 'median', 'p95', 'max']
const widths = header.map((title, i) =>
  Math.max(title.length, ...rows.map((each) => each[i]!.length)),
)
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')
console.log(line(header))
for (const each of rows) console.log(line(each))
