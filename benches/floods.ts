// `npm run bench:floods`: what the pipelining flood costs the server, and what the protection
// against it costs normal traffic. For each compiled server named in BENCH_SERVERS (label=path
// to main.js, comma-separated; default: this build's build/server/main.js), on the same dist/:
//   1. requests per second for `/` and for a demo request sent as the page sends it (autocannon,
//      BENCH_CONNECTIONS connections for BENCH_SECONDS each, the rate limits lifted);
//   2. the flood: 4 sockets from another loopback address, each sending 5,000 pipelined
//      `GET /` (about 0.3 MB in all) and never reading; the server's peak resident memory and
//      open files (from /proc) over 3 s, and whether a visitor's /healthz is answered meanwhile;
//   3. the log under a flood, with the server's default limits and LOG_LEVEL info: what 2,000
//      posts from another site's page with an 8 KB Origin add to it, and how long they take;
//      then 60 sends from six addresses (each within its own limit, together at the total
//      ceiling) and what a visitor who sends one more is answered (429 refused, 200 held).
// Prints one table. To compare with an older commit, compile its server beside this one:
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/ &&
//   (cd /tmp/before && npx tsc -p tsconfig.server.json --outDir build)
//   BENCH_SERVERS=before=/tmp/before/build/server/main.js,after=build/server/main.js npm run bench:floods
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent, request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { startSite } from '../testing/site.js'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const distDir = resolve(process.env.DIST_DIR ?? join(repoRoot, 'dist'))
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const servers = (
  process.env.BENCH_SERVERS ?? `this build=${join(repoRoot, 'build/server/main.js')}`
)
  .split(',')
  .map((entry) => {
    const [label = '', path = ''] = entry.split('=')
    return { label, main: resolve(path) }
  })

const SEND_BODY = JSON.stringify({
  lib_version: '4.4.1',
  user_id: 'k',
  service_id: 's',
  template_id: 't',
  template_params: {
    user_name: 'Ana López',
    user_email: 'ana@gasolinera.mx',
    user_phone: '+52 55 1234 5678',
    user_group: 'Grupo Norte',
    message: 'Quiero una demo para 12 estaciones.',
    contact_number: '4821',
  },
})

const start = (main: string, dataDir: string) =>
  startSite({
    host: 'node',
    server: main,
    build: { dir: distDir },
    showErrors: true,
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_RATE_LIMIT_PER_MINUTE: '1000000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '1000000',
    },
  })

function facts(pid: number): { rss: number; peak: number; files: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024
  return { rss: kib('VmRSS'), peak: kib('VmHWM'), files: readdirSync(`/proc/${pid}/fd`).length }
}

async function requestsPerSecond(url: string, method: 'GET' | 'POST'): Promise<number> {
  const options = {
    url: method === 'GET' ? `${url}/` : `${url}/api/v1.0/email/send`,
    method,
    connections,
    headers:
      method === 'GET'
        ? { 'accept-encoding': 'br, gzip' }
        : { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    ...(method === 'POST' && { body: SEND_BODY }),
  }
  await autocannon({ ...options, duration: 1 })
  const result = await autocannon({ ...options, duration: seconds })
  if (result.non2xx + result.errors > 0) {
    throw new Error(`${method} had ${result.non2xx} non-2xx answers and ${result.errors} errors`)
  }
  return Math.round(result.requests.average)
}

const healthz = (url: string): Promise<string> =>
  new Promise((done) => {
    const began = performance.now()
    const req = httpRequest(
      `${url}/healthz`,
      { localAddress: '127.0.0.3', agent: false, timeout: 5_000 },
      (res) => {
        res.resume()
        res.on('end', () =>
          done(`${res.statusCode} in ${Math.round(performance.now() - began)} ms`),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (error) => done(`no answer (${error.message})`))
    req.end()
  })

async function flood(url: string, pid: number) {
  const before = facts(pid)
  const { port } = new URL(url)
  const pipelined = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: br, gzip\r\n\r\n'
  const sockets: Socket[] = []
  for (let i = 0; i < 4; i++) {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: '127.0.0.2' })
    socket.on('error', () => undefined)
    socket.once('connect', () => {
      socket.write(pipelined.repeat(5_000))
      socket.pause()
    })
    sockets.push(socket)
  }
  let files = before.files
  for (let sample = 0; sample < 30; sample++) {
    await new Promise((wait) => setTimeout(wait, 100))
    files = Math.max(files, facts(pid).files)
  }
  const visitor = await healthz(url)
  const peak = facts(pid).peak
  for (const socket of sockets) socket.destroy()
  return {
    sentKB: Math.round((Buffer.byteLength(pipelined) * 5_000 * 4) / 1024),
    rssBeforeMB: before.rss / 1024 ** 2,
    peakGrowthMB: (peak - before.rss) / 1024 ** 2,
    filesBefore: before.files,
    filesPeak: files,
    visitor,
  }
}

/** Posts a send as the page does; resolves to the status. */
const post = (
  url: string,
  headers: Record<string, string>,
  options: { agent?: Agent; localAddress?: string } = {},
): Promise<number> =>
  new Promise((done, fail) => {
    const req = httpRequest(
      `${url}/api/v1.0/email/send`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        agent: options.agent ?? false,
        ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
      },
      (res) => {
        res.resume()
        res.on('end', () => done(res.statusCode ?? 0))
      },
    )
    req.on('error', fail)
    req.end(SEND_BODY)
  })

/** The file's size once it has stopped growing: the server writes its log behind its answers. */
async function settledSize(file: string): Promise<number> {
  let size = statSync(file).size
  for (;;) {
    await new Promise((wait) => setTimeout(wait, 500))
    const now = statSync(file).size
    if (now === size) return size
    size = now
  }
}

async function logUnderFlood(main: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-bench-floods-'))
  const logFile = join(dataDir, 'server.log')
  const server = await startSite({
    host: 'node',
    server: main,
    build: { dir: distDir },
    logFile,
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'info' },
  })
  try {
    const before = await settledSize(logFile)
    const origin = `https://${'a'.repeat(8 * 1024)}.example`
    const agent = new Agent({ keepAlive: true, maxSockets: 16 })
    const began = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < 2_000) await post(server.origin, { origin }, { agent })
      }),
    )
    const ms = performance.now() - began
    agent.destroy()
    const logBytes = (await settledSize(logFile)) - before
    const flood = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(async (address) => {
        const statuses = []
        for (let n = 0; n < 10; n++) {
          statuses.push(await post(server.origin, {}, { localAddress: `127.0.7.${address}` }))
        }
        return statuses
      }),
    )
    const visitor = await post(server.origin, {}, { localAddress: '127.0.7.7' })
    return {
      logBytes,
      ms,
      flood200: flood.flat().filter((status) => status === 200).length,
      visitor,
    }
  } finally {
    server.child.kill('SIGKILL')
    await server.exited
    await rm(dataDir, { recursive: true, force: true })
  }
}

const rows: string[][] = [
  [
    'server',
    'GET / req/s',
    'send req/s',
    'flood sent',
    'RSS before',
    'peak growth',
    'open files before → peak',
    'visitor /healthz',
    '2,000 cross-site posts: log',
    '60 sends, then a visitor',
  ],
]
for (const { label, main } of servers) {
  const dataDir = await mkdtemp(join(tmpdir(), 'gaspre-bench-floods-'))
  const server = await start(main, dataDir)
  try {
    const page = await requestsPerSecond(server.origin, 'GET')
    const send = await requestsPerSecond(server.origin, 'POST')
    const result = await flood(server.origin, server.child.pid!)
    const logged = await logUnderFlood(main)
    rows.push([
      label,
      String(page),
      String(send),
      `${result.sentKB} KB`,
      `${result.rssBeforeMB.toFixed(0)} MB`,
      `${result.peakGrowthMB.toFixed(0)} MB`,
      `${result.filesBefore} → ${result.filesPeak}`,
      result.visitor,
      `${(logged.logBytes / 1024).toFixed(1)} KB in ${(logged.ms / 1000).toFixed(1)} s`,
      `${logged.flood200} × 200, visitor ${logged.visitor}`,
    ])
  } finally {
    server.child.kill('SIGKILL')
    await server.exited
    await rm(dataDir, { recursive: true, force: true })
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
