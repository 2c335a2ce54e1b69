// `npm run bench:outbox`: `npm run outbox` on a large store, to show it streams.
//
//   1. writes an outbox.jsonl of OUTBOX_BENCH_MB (default 300) MB of realistic demo requests
//      into a temporary DATA_DIR, and imports it into the SQLite store there (--import),
//   2. runs the compiled CLI (build/server/cli/outbox.js; `npm run build` first) twice: the CSV
//      export to a file, and the newest-first listing to /dev/null,
//   3. prints the store's size, the wall time and the peak resident memory (maxRSS) of each run,
//      and checks the CSV has one row per request. The temporary directory is removed on every
//      path.
//
// Issue 45, on a 375 MB store of 433,000 requests (two busy cores): the listing had not ended
// after 8 minutes, past 500 MB and rising, as each page sorted the table and each date made an
// ICU formatter; with migration 080 and one formatter per time zone it takes 16 s and 265 MB,
// the CSV export's figures.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const cli = new URL('../build/server/cli/outbox.js', import.meta.url)
if (!existsSync(cli)) {
  console.error('bench:outbox: there is no server build yet; run `npm run build` first.')
  process.exit(1)
}
const targetBytes = Number(process.env.OUTBOX_BENCH_MB ?? 300) * 1024 * 1024
// Prints the child's peak RSS on exit; a data: URL needs no file of its own.
const REPORT_RSS =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS "+process.resourceUsage().maxRSS+"\\n"))'

function record(n) {
  const sources = ['Google Ads', 'directo', 'whatsapp / mensaje / otono', 'referencia: bing.com']
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    receivedAt: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
    serviceId: 'service_local',
    templateId: 'template_demo',
    params: {
      user_name: `Visitante Número ${n}`,
      user_email: `visitante${n}@gasolineras-del-norte.mx`,
      user_phone: `+52 55 ${String(n % 10_000).padStart(4, '0')} 5678`,
      user_group: 'Gasolineras del Norte, S.A. de C.V.',
      message: `Hola, tenemos ${n % 40} estaciones y queremos ver una demostración.\nGracias.`,
      contact_number: String(n % 100_000),
      traffic_source: sources[n % sources.length],
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'otoño-2025',
      gclid: 'Cj0KCQjw-abcdefghijklmnopqrstuvwxyz0123456789',
      landing_page: '/?utm_source=google&utm_medium=cpc&utm_campaign=oto%C3%B1o-2025',
      first_visit_at: new Date(Date.UTC(2025, 0, 1) + n * 60_000 - 90_000).toISOString(),
    },
  }
}

async function writeOutbox(file) {
  const out = createWriteStream(file)
  let bytes = 0
  let count = 0
  while (bytes < targetBytes) {
    let batch = ''
    for (let i = 0; i < 1000; i++) batch += `${JSON.stringify(record(count++))}\n`
    bytes += Buffer.byteLength(batch)
    if (!out.write(batch)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return count
}

function run(args, dataDir, stdoutFile) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, ['--import', REPORT_RSS, cli.pathname, ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.pipe(createWriteStream(stdoutFile))
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const maxRssKb = Number(/maxRSS (\d+)/.exec(stderr)?.[1])
      if (code !== 0) reject(new Error(`outbox ${args.join(' ')} exited ${code}:\n${stderr}`))
      else resolve({ seconds, maxRssMb: maxRssKb / 1024 })
    })
  })
}

async function countLines(file) {
  let lines = 0
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Infinity,
  })) {
    if (line !== '') lines++
  }
  return lines
}

const dir = await mkdtemp(join(tmpdir(), 'gaspre-bench-outbox-'))
try {
  const dataDir = join(dir, 'data')
  await mkdir(dataDir)
  const outbox = join(dataDir, 'outbox.jsonl')
  const written = await writeOutbox(outbox)
  const size = (await stat(outbox)).size
  console.log(`outbox: ${written} requests, ${(size / 1024 / 1024).toFixed(1)} MB`)

  const imported = await run(['--import', outbox], dataDir, '/dev/null')
  const store = (await stat(join(dataDir, 'leads.sqlite'))).size
  console.log(
    `--import: ${imported.seconds.toFixed(1)} s, peak RSS ${imported.maxRssMb.toFixed(0)} MB; ` +
      `the store is ${(store / 1024 / 1024).toFixed(0)} MB`,
  )

  const csvFile = join(dir, 'solicitudes.csv')
  const csv = await run(['--csv'], dataDir, csvFile)
  const rows = (await countLines(csvFile)) - 1 // the header
  // Each request's message holds one line break inside its quoted field.
  const requestsInCsv = rows / 2
  console.log(
    `--csv:   ${csv.seconds.toFixed(1)} s, peak RSS ${csv.maxRssMb.toFixed(0)} MB, ` +
      `${((await stat(csvFile)).size / 1024 / 1024).toFixed(1)} MB of CSV, ${requestsInCsv} requests`,
  )
  if (requestsInCsv !== written) throw new Error(`the CSV holds ${requestsInCsv} of ${written}`)
  const list = await run([], dataDir, '/dev/null')
  console.log(`listing: ${list.seconds.toFixed(1)} s, peak RSS ${list.maxRssMb.toFixed(0)} MB`)
} finally {
  await rm(dir, { recursive: true, force: true })
}
