// `npm run bench:server`: load-tests the production server beside nginx on the same build.
// Both serve dist/ on loopback; autocannon hits / and the largest hashed script with
// BENCH_CONNECTIONS (500) connections for BENCH_SECONDS (20) each, asking for br/gzip as a
// browser does. Prints a table, writes bench-results/server.json, and exits non-zero if the
// Node server had any error, timeout or non-2xx answer.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { readSiteBuild } from '../server/http/site-build.js'
import { nginxInstalled } from '../testing/server/nginx.js'
import { startSite } from '../testing/site.js'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const distDir = resolve(process.env.DIST_DIR ?? join(repoRoot, 'dist'))
const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 500)

interface Figures {
  server: string
  path: string
  requestsPerSecond: number
  p99Ms: number
  errors: number
  timeouts: number
  non2xx: number
  bytesPerSecond: number
  requests: number
}

async function largestScript(): Promise<string> {
  const assets = join(distDir, 'assets')
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'))
  if (scripts.length === 0) throw new Error(`no .js file in ${assets}`)
  const sizes = await Promise.all(
    scripts.map(async (name) => (await stat(join(assets, name))).size),
  )
  const largest = scripts[sizes.indexOf(Math.max(...sizes))] as string
  return `/assets/${largest}`
}

// Loaded into the server's process before main.js: answers 'memory' on the IPC channel with
// the server's own figures, so the production server holds no code for its benchmark.
const REPORT_MEMORY =
  'data:text/javascript,process.on("message",(m)=>{if(m==="memory")process.send({memory:process.memoryUsage()})});process.channel?.unref()'

/**
 * Starts build/server/main.js with an IPC channel (for memory figures), logging to a file: its
 * request log under load would otherwise cost this process, which runs autocannon, its CPU.
 */
async function startNode(work: string) {
  const site = await startSite({
    host: 'node',
    build: { dir: distDir },
    env: { DATA_DIR: work },
    nodeOptions: ['--import', REPORT_MEMORY],
    ipc: true,
    logFile: join(work, 'node-server.log'),
  })
  const { child } = site
  const memory = () =>
    new Promise<NodeJS.MemoryUsage>((done, reject) => {
      const timer = setTimeout(() => reject(new Error('no memory report')), 5_000)
      child.once('message', (message) => {
        clearTimeout(timer)
        done((message as { memory: NodeJS.MemoryUsage }).memory)
      })
      child.send('memory')
    })
  return { url: site.origin, memory, stop: site.stop }
}

async function load(server: string, url: string, path: string): Promise<Figures> {
  // A short, unrecorded warm-up so JIT compilation and cold file caches don't skew the run.
  await autocannon({ url: `${url}${path}`, connections: 10, duration: 1 })
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    duration: seconds,
    headers: { 'accept-encoding': 'br, gzip' },
  })
  return {
    server,
    path,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: Math.round(result.throughput.average),
    requests: result.requests.total,
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

function table(rows: Figures[]): string {
  const head = ['server', 'path', 'req/s (avg)', 'p99 ms', 'errors+timeouts+non2xx', 'throughput']
  const body = rows.map((row) => [
    row.server,
    row.path,
    String(row.requestsPerSecond),
    String(row.p99Ms),
    String(row.errors + row.timeouts + row.non2xx),
    `${mb(row.bytesPerSecond)}/s`,
  ])
  const widths = head.map((_, i) =>
    Math.max(...[head, ...body].map((cells) => cells[i]?.length ?? 0)),
  )
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n')
}

interface Measured {
  rows: Figures[]
  memoryBefore: NodeJS.MemoryUsage
  memoryAfter: NodeJS.MemoryUsage
  nginxNote: string | null
}

async function measure(work: string, asset: string): Promise<Measured> {
  const rows: Figures[] = []
  const node = await startNode(work)
  let memoryBefore: NodeJS.MemoryUsage
  let memoryAfter: NodeJS.MemoryUsage
  try {
    memoryBefore = await node.memory()
    for (const path of ['/', asset]) rows.push(await load('node', node.url, path))
    memoryAfter = await node.memory()
  } finally {
    await node.stop()
  }
  if (!nginxInstalled()) {
    const nginxNote =
      'nginx is not installed (apt-get install -y nginx-light): only Node was measured'
    return { rows, memoryBefore, memoryAfter, nginxNote }
  }
  const nginx = await startSite({ host: 'nginx', build: { dir: distDir } })
  try {
    for (const path of ['/', asset]) rows.push(await load('nginx', nginx.origin, path))
  } finally {
    await nginx.stop()
  }
  return { rows, memoryBefore, memoryAfter, nginxNote: null }
}

async function main(): Promise<number> {
  readSiteBuild(distDir) // a clear message if the build is missing
  const asset = await largestScript()
  console.log(`Benchmark: ${connections} connections, ${seconds} s per run, dist ${distDir}`)
  const work = await mkdtemp(join(tmpdir(), 'gaspre-bench-'))
  let measured: Measured
  try {
    measured = await measure(work, asset)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
  const { rows, memoryBefore, memoryAfter, nginxNote } = measured

  console.log(`\n${table(rows)}\n`)
  console.log(
    `Node server memory: RSS ${mb(memoryBefore.rss)} -> ${mb(memoryAfter.rss)}, ` +
      `heap used ${mb(memoryBefore.heapUsed)} -> ${mb(memoryAfter.heapUsed)}`,
  )
  if (nginxNote) console.log(nginxNote)

  const outDir = join(repoRoot, 'bench-results')
  await mkdir(outDir, { recursive: true })
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    connections,
    seconds,
    acceptEncoding: 'br, gzip',
    results: rows,
    nodeMemory: { before: memoryBefore, after: memoryAfter },
    ...(nginxNote && { note: nginxNote }),
  }
  await writeFile(join(outDir, 'server.json'), `${JSON.stringify(report, null, 2)}\n`)
  console.log(`Written to ${join(outDir, 'server.json')}`)

  const failed = rows.filter(
    (row) => row.server === 'node' && row.errors + row.timeouts + row.non2xx > 0,
  )
  if (failed.length > 0) {
    console.error(`The Node server failed requests under ${connections} connections.`)
    return 1
  }
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:server: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  },
)
