// The compiled server as a process: what it prints, how it stops, and that the store survives
// a crash, on SQLite and on PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { connect, createServer, type AddressInfo } from 'node:net'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SEND_PATH } from './intake/demo-intake.js'
import { SQLITE_FILE } from './store/lead-store.js'
import { fakeDistForThisFile } from '../testing/server/per-file.js'
import { request, type HttpResponse } from '../testing/server/http.js'
import { MAIN_JS } from '../testing/server/compiled-server.js'
import {
  processAlive,
  spawnSite,
  startSite,
  type RunningSite,
  type SiteProcess,
} from '../testing/site.js'
import { waitUntil } from '../testing/wait-until.js'
import { freshDatabase } from '../testing/server/postgres.js'
import { storedRequests } from '../testing/server/store.js'

const dist = fakeDistForThisFile()
let dataDir: string
const running: SiteProcess[] = []

const start = async (env: Record<string, string> = {}): Promise<RunningSite> => {
  const server = await startSite({
    host: 'node',
    server: MAIN_JS,
    build: { dir: dist.dist },
    env: { DATA_DIR: dataDir, ...env },
  })
  running.push(server)
  return server
}

/** A server started to see it refuse: not waited for, only killed if it runs on. */
const refuse = (env: Record<string, string>, distDir = dist.dist): SiteProcess => {
  const server = spawnSite({ host: 'node', server: MAIN_JS, build: { dir: distDir }, env })
  running.push(server)
  return server
}

/** The lines the server prints when it refuses to start with `env` on the test's DATA_DIR. */
async function refusedWith(env: Record<string, string>): Promise<string[]> {
  const server = refuse({ DATA_DIR: dataDir, ...env })
  expect((await server.exited).code).toBe(1)
  return server.lines
}

const demoRequestBody = (email: string): string =>
  JSON.stringify({
    lib_version: '4.4.1',
    user_id: 'k',
    service_id: 's',
    template_id: 't',
    template_params: {
      user_name: 'Prueba Pérez',
      user_email: email,
      user_phone: '+52 55 8765 4321',
      user_group: 'G',
      contact_number: '731',
    },
  })

const submit = (url: string, email: string): Promise<HttpResponse> =>
  request(url, SEND_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: demoRequestBody(email),
    timeoutMs: 20_000,
  })

/** A port another program listens on, on 127.0.0.1, until closed. */
async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const other = createServer()
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const { port } = other.address() as AddressInfo
  return { port, close: () => new Promise((resolve) => other.close(() => resolve())) }
}

const refusesConnections = (url: string): Promise<boolean> =>
  new Promise((done) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once('connect', () => {
      socket.destroy()
      done(false)
    })
    socket.once('error', () => done(true))
  })

/** Every process below `pid`, from /proc (Linux). */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid …; comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parentOf.set(Number(entry), ppid)
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = []
  let frontier = [pid]
  while (frontier.length > 0) {
    const children = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([p]) => p)
    found.push(...children)
    frontier = children
  }
  return found
}

afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL')
      await server.exited
    }
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('the server process', () => {
  it('says where it listens, that it runs in own-server mode, and where the store is', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const server = await start()
    // The lines after "Listening on" may arrive in a later chunk: wait for the last one.
    await expect
      .poll(() => server.lines.some((line) => line.startsWith('No delivery configured')))
      .toBe(true)
    expect(server.lines).toContain(`Listening on ${server.origin}/`)
    expect(
      server.lines.some((line) => /^Own-server mode .* take the demo requests$/.test(line)),
    ).toBe(true)
    expect(server.lines).toContain(
      `Demo requests are stored in ${join(dataDir, SQLITE_FILE)} (list them: npm run outbox); ` +
        `this server holds ${dataDir} until it stops`,
    )
    expect(server.lines).toContain(
      'No delivery configured: requests are only stored. Set SMTP_URL, LEADS_MAIL_TO and ' +
        'LEADS_MAIL_FROM to e-mail them, or LEADS_WEBHOOK_URL and LEADS_WEBHOOK_SECRET to ' +
        'post them (docs/production.md, Delivery to the sales team)',
    )
  })

  it('logs each request as one JSON line, and each stored request by id and contact number only', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const server = await start()
    await request(server.origin, '/tyc?from=test')
    expect((await submit(server.origin, 'log@x.mx')).status).toBe(200)
    const jsonLines = () =>
      server.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line))
    // The answer can reach the test before the server's log line reaches its pipe.
    await expect
      .poll(() => jsonLines().filter((entry) => entry.event === 'demo-request'))
      .toHaveLength(1)
    const json = jsonLines()
    const pageLines = json.filter((entry) => entry.url === '/tyc?from=test')
    expect(pageLines).toHaveLength(1)
    expect(pageLines[0]).toMatchObject({ method: 'GET', status: 200, msg: 'request' })
    const stored = json.filter((entry) => entry.event === 'demo-request')
    expect(stored).toHaveLength(1)
    const [record] = await storedRequests({ dataDir })
    expect(stored[0]).toMatchObject({ id: record?.id, contact: '731' })
    const log = server.lines.join('\n')
    for (const personal of ['log@x.mx', 'Prueba', '8765 4321']) expect(log).not.toContain(personal)
  })

  it('on SIGTERM stops accepting, finishes the in-flight request and exits 0', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const server = await start()
    const email = 'inflight@x.mx'
    // A keep-alive connection, as a browser's: it must not hold the closing server open.
    const agent = new Agent({ keepAlive: true })
    // A slow upload, as from a phone on a weak signal: the server has read the request's head
    // (it answers "100 Continue") and waits for its body while the signal arrives.
    const body = demoRequestBody(email)
    const { hostname, port } = new URL(server.origin)
    const upload = httpRequest({
      host: hostname,
      port: Number(port),
      path: SEND_PATH,
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    })
    const answered = new Promise<{ status: number; text: string; connection: string }>(
      (resolve, reject) => {
        upload.once('error', reject)
        upload.once('response', (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.once('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString(),
              connection: String(response.headers.connection),
            }),
          )
        })
      },
    )
    await new Promise<void>((resolve) => upload.once('continue', resolve))
    server.child.kill('SIGTERM')
    await expect.poll(() => refusesConnections(server.origin)).toBe(true)
    upload.end(body)
    const answer = await answered
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('OK')
    expect(answer.connection).toBe('close')
    expect(await server.exited).toEqual({ code: 0, signal: null })
    // It exited because the work was done, not because the grace ran out on the idle
    // keep-alive connection.
    expect(server.lines.join('\n')).not.toContain('did not finish in time')
    agent.destroy()
    const records = await storedRequests({ dataDir })
    expect(records.map((record) => record.params.user_email)).toEqual([email])
  })

  it('SIGTERM to the `npm start` process stops the server: the port is freed, no node is left', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const npm = await startSite({
      host: 'node',
      viaNpmStart: true,
      server: MAIN_JS,
      build: { dir: dist.dist },
      env: { DATA_DIR: dataDir },
    })
    running.push(npm)
    const npmPid = npm.child.pid as number
    const processes = [npmPid, ...descendantsOf(npmPid)]
    expect(processes.length).toBeGreaterThan(1)

    try {
      process.kill(npmPid, 'SIGTERM') // what a supervisor does: signal the main PID
      expect(await npm.exited).toEqual({ code: 0, signal: null })
      expect(npm.lines.join('\n')).toMatch(/"signal":"SIGTERM".*stopping/)
      expect(await refusesConnections(npm.origin)).toBe(true)
      await waitUntil(() => !processes.some(processAlive), {
        what: 'no process npm start started is left',
        timeoutMs: 10_000,
        details: () => `still running: ${processes.filter(processAlive).join(', ')}`,
      })
    } finally {
      // Never leave an orphaned server behind when the test fails.
      for (const pid of processes.filter(processAlive)) process.kill(pid, 'SIGKILL')
    }
  })

  it('refuses to start with a limit that is not a whole number, naming it and what it takes', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    expect(await refusedWith({ OUTBOX_MAX_BYTES: '1GB' })).toEqual([
      'OUTBOX_MAX_BYTES must be a whole number of bytes from 1 to 1099511627776, not "1GB"',
    ])
  })

  it('imports the outbox.jsonl of an older server at its first start, then removes it: its requests are stored', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const records = [1, 2].map((n) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      // Recent: older ones would go at start, past the retention period.
      receivedAt: new Date(Date.now() - (3 - n) * 60_000).toISOString(),
      serviceId: 's',
      templateId: 't',
      params: { user_name: `Antes ${n}`, user_email: `antes${n}@x.mx` },
    }))
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join('')
    await writeFile(join(dataDir, 'outbox.jsonl'), text)
    const imported = (server: SiteProcess) =>
      server.lines.filter((line) => line.includes('"event":"outbox-imported"'))
    const first = await start()
    await expect.poll(() => imported(first)).toHaveLength(1)
    expect(imported(first)[0]).toContain('imported 2 new of the 2 requests')
    expect(imported(first)[0]).toContain('the file is removed: its requests are in the store')
    first.child.kill('SIGTERM')
    await first.exited
    const second = await start()
    expect((await submit(second.origin, 'despues@x.mx')).status).toBe(200)
    expect(imported(second)).toEqual([])
    const stored = await storedRequests({ dataDir })
    expect(stored.map((record) => record.params.user_email)).toEqual([
      'antes1@x.mx',
      'antes2@x.mx',
      'despues@x.mx',
    ])
    expect(await readdir(dataDir)).not.toContain('outbox.jsonl')
  })

  it('refuses to start on an unreachable DATABASE_URL, in one line naming it', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const lines = await refusedWith({ DATABASE_URL: 'postgres://ventas:secreto@127.0.0.1:1/leads' })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^DATABASE_URL postgres:\/\/ventas:\*\*\*@127\.0\.0\.1:1\/leads cannot be reached: /,
    )
  })

  it('refuses to start with a webhook and no secret, naming the missing variable', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    expect(await refusedWith({ LEADS_WEBHOOK_URL: 'https://crm.example.com/hooks/leads' })).toEqual(
      ['LEADS_WEBHOOK_SECRET must be set when LEADS_WEBHOOK_URL is: the webhook is always signed'],
    )
  })

  /** Another program holds the port `variable` names: one line naming it, and exit 1. */
  async function refusesTakenPort(variable: 'PORT' | 'METRICS_PORT'): Promise<void> {
    const taken = await holdPort()
    try {
      expect(await refusedWith({ [variable]: String(taken.port) })).toEqual([
        `${variable} ${taken.port} cannot be listened on: another program listens on 127.0.0.1:${taken.port}; stop it, or choose another ${variable}`,
      ])
    } finally {
      await taken.close()
    }
  }

  it('refuses to start on a port another program listens on, in one line naming PORT', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    await refusesTakenPort('PORT')
  })

  it('refuses METRICS_PORT equal to PORT, or taken by another program, in one line naming it', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    expect(await refusedWith({ PORT: '3917', METRICS_PORT: '3917' })).toEqual([
      'METRICS_PORT must differ from PORT (both 3917): the metrics are never served on the public port',
    ])
    await refusesTakenPort('METRICS_PORT')
  })

  it('refuses a webhook secret its signing library could not use, without writing it out', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    // whsec_ and base64 to the eye, but 21 characters: no whole bytes (and 15 of them at most).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8IL'
    expect(
      await refusedWith({
        LEADS_WEBHOOK_URL: 'https://crm.example.com/hooks/leads',
        LEADS_WEBHOOK_SECRET: secret,
      }),
    ).toEqual([
      `LEADS_WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes, not the ${secret.length} characters given`,
    ])
  })

  it('refuses to start without a build, saying to run the build first', async () => {
    const server = refuse({}, join(dist.root, 'no-such-dist'))
    expect((await server.exited).code).toBe(1)
    expect(server.lines.join('\n')).toMatch(/Run npm run build first/)
  })
})

describe.each(['sqlite', 'postgres'] as const)('on %s', (kind) => {
  it('keeps every acknowledged request, once, when killed (SIGKILL) under 20 concurrent senders', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const databaseUrl = kind === 'postgres' ? await freshDatabase() : undefined
    const env = {
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
      ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    }
    const first = await start(env)
    const acknowledged: string[] = []
    const sent: string[] = []
    let stop = false
    // 20 senders, each sending one request after another until the kill cuts them off.
    const senders = Array.from({ length: 20 }, async (_, sender) => {
      for (let i = 0; !stop; i++) {
        const email = `kill${sender}-${i}@x.mx`
        sent.push(email)
        const res = await submit(first.origin, email).catch(() => null)
        if (res === null) return
        if (res.status === 200) acknowledged.push(email)
      }
    })
    await waitUntil(() => acknowledged.length >= 60, {
      what: '60 requests are acknowledged',
      intervalMs: 2,
    })
    first.child.kill('SIGKILL')
    await first.exited
    stop = true
    await Promise.all(senders)
    expect(acknowledged.length).toBeGreaterThanOrEqual(60)

    const second = await start(env)
    expect((await submit(second.origin, 'after-restart@x.mx')).status).toBe(200)
    const records = await storedRequests({ dataDir, databaseUrl })
    const stored = records.map((record) => record.params.user_email ?? '')
    expect(new Set(stored).size).toBe(stored.length) // none stored twice
    for (const email of acknowledged) expect(stored).toContain(email) // none acknowledged lost
    expect(stored).toContain('after-restart@x.mx')
    for (const email of stored) expect([...sent, 'after-restart@x.mx']).toContain(email)
  })
})

describe('two servers on one PostgreSQL', () => {
  it('both serve, and each of 20 concurrent senders’ requests is stored once', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gaspre-data-'))
    const databaseUrl = await freshDatabase()
    const env = {
      DATABASE_URL: databaseUrl,
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    }
    // Started at once on the empty database: both migrate it safely.
    const [a, b] = await Promise.all([start(env), start(env)])
    const emails = Array.from({ length: 20 }, (_, i) => `pair${i}@x.mx`)
    const answers = await Promise.all(
      emails.map((email, i) => submit((i % 2 === 0 ? a! : b!).origin, email)),
    )
    expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 200))
    const stored = (await storedRequests({ dataDir, databaseUrl })).map((r) => r.params.user_email)
    expect(stored.sort()).toEqual([...emails].sort())
  })
})
