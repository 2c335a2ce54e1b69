// One server per DATA_DIR, a DATA_DIR the server can use, and a stop that means what it says:
// what an operator gets wrong, tried on the compiled server as a process.
import { execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SQLITE_FILE } from './lead-store.js'
import { makeFakeDist, type FakeDist } from '../../testing/server/fake-dist.js'
import { DEMO_PARAMS, sendDemoRequest } from '../../testing/server/demo-request.js'
import { request } from '../../testing/server/http.js'
import { storedRequests } from '../../testing/server/store.js'
import { MAIN_JS } from '../../testing/server/compiled-server.js'
import { spawnSite, startSite, type RunningSite, type SiteProcess } from '../../testing/site.js'

/** Root may mount a small tmpfs: a real disk that fills, and a real read-only file system. */
const canMount = process.getuid?.() === 0
const NOBODY = 65_534

let dist: FakeDist
let scratch: string
const running: SiteProcess[] = []
const mounts: string[] = []

async function tmpfs(options: string): Promise<string> {
  const dir = await mkdtemp(join(scratch, 'tmpfs-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir])
  mounts.push(dir)
  return dir
}

const start = async (env: Record<string, string>): Promise<RunningSite> => {
  const server = await startSite({ host: 'node', server: MAIN_JS, build: { dir: dist.dist }, env })
  running.push(server)
  return server
}

const params = (email: string) => ({ ...DEMO_PARAMS, user_email: email, message: 'x'.repeat(1500) })
const send = (url: string, email: string) => sendDemoRequest(url, params(email))

/** What a server printed before it exited, and how it exited. */
async function refusal(env: Record<string, string>) {
  const server = spawnSite({ host: 'node', server: MAIN_JS, build: { dir: dist.dist }, env })
  running.push(server)
  const exit = await server.exited
  return { code: exit.code, lines: server.lines }
}

beforeAll(async () => {
  dist = await makeFakeDist()
  scratch = await mkdtemp(join(tmpdir(), 'gaspre-data-dir-'))
  await chmod(scratch, 0o755)
})
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL')
    await server.exited
  }
})
afterAll(async () => {
  for (const dir of mounts) execFileSync('umount', [dir])
  await rm(scratch, { recursive: true, force: true })
  await rm(dist.root, { recursive: true, force: true })
})

describe('one server per DATA_DIR', () => {
  it('a second server on the same folder refuses to start and names the one that holds it', async () => {
    const dataDir = canMount ? await tmpfs('size=4m') : await mkdtemp(join(scratch, 'data-'))
    const first = await start({ DATA_DIR: dataDir })
    expect((await send(first.origin, 'primero@grupo.mx')).status).toBe(200)

    const second = await refusal({ DATA_DIR: dataDir })
    expect(second.code).toBe(1)
    expect(second.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^DATA_DIR ${dataDir} is in use by process ${first.child.pid} on .+, started .+`,
        ),
      ),
    ])
    // The first one still serves, and its request is still there.
    expect((await send(first.origin, 'segundo@grupo.mx')).status).toBe(200)
    const records = await storedRequests({ dataDir })
    expect(records.map((record) => record.params.user_email)).toEqual([
      'primero@grupo.mx',
      'segundo@grupo.mx',
    ])

    // Stop, then start: the rolling restart docs/production.md describes.
    first.child.kill('SIGTERM')
    expect(await first.exited).toEqual({ code: 0, signal: null })
    const next = await start({ DATA_DIR: dataDir })
    expect((await send(next.origin, 'tercero@grupo.mx')).status).toBe(200)
    expect(await storedRequests({ dataDir })).toHaveLength(3)
  })

  it('a server killed with -9 does not keep its successor out', async () => {
    const dataDir = await mkdtemp(join(scratch, 'data-'))
    const killed = await start({ DATA_DIR: dataDir })
    killed.child.kill('SIGKILL')
    await killed.exited
    const next = await start({ DATA_DIR: dataDir })
    expect((await send(next.origin, 'despues@grupo.mx')).status).toBe(200)
  })
})

describe('a DATA_DIR the server cannot use stops the start with one line', () => {
  it('a file instead of a folder', async () => {
    const file = join(scratch, 'a-file')
    await writeFile(file, 'not a folder\n')
    const { code, lines } = await refusal({ DATA_DIR: file })
    expect(code).toBe(1)
    expect(lines).toEqual([
      `DATA_DIR ${file} cannot hold the demo requests: it, or a folder above it, is a file. Point DATA_DIR at a folder this user can write.`,
    ])
  })

  it('a folder below a file', async () => {
    const file = join(scratch, 'another-file')
    await writeFile(file, 'not a folder\n')
    const { code, lines } = await refusal({ DATA_DIR: join(file, 'data') })
    expect(code).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('is a file')
  })

  it.runIf(canMount)('a read-only file system', async () => {
    const readOnly = await tmpfs('size=1m,ro')
    for (const dataDir of [readOnly, join(readOnly, 'data')]) {
      const { code, lines } = await refusal({ DATA_DIR: dataDir })
      expect(code).toBe(1)
      expect(lines).toEqual([
        `DATA_DIR ${dataDir} cannot hold the demo requests: it is on a read-only file system. Point DATA_DIR at a folder this user can write.`,
      ])
    }
  })

  it.runIf(canMount)('a folder this user may not write', async () => {
    const locked = await mkdtemp(join(scratch, 'locked-'))
    await chmod(locked, 0o755) // root's; the server below runs as nobody
    await chmod(dist.root, 0o755) // the build itself stays readable to nobody
    const server = spawnSite({
      host: 'node',
      server: MAIN_JS,
      build: { dir: dist.dist },
      env: { DATA_DIR: locked },
      user: { uid: NOBODY, gid: NOBODY },
    })
    running.push(server)
    expect((await server.exited).code).toBe(1)
    expect(server.lines).toEqual([
      `DATA_DIR ${locked} cannot hold the demo requests: this user (uid ${NOBODY}) may not write there. Point DATA_DIR at a folder this user can write.`,
    ])
  })

  it('a store file the server cannot open is named as well', async () => {
    const dataDir = await mkdtemp(join(scratch, 'data-'))
    await mkdir(join(dataDir, SQLITE_FILE)) // a folder where the database file should be
    const { code, lines } = await refusal({ DATA_DIR: dataDir })
    expect(code).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(`DATA_DIR ${dataDir} cannot hold the demo requests`)
  })
})

describe('the demo requests are private on disk', () => {
  /** Starts a server with `umask` as the operator's shell had it. */
  async function startUnder(umask: number, env: Record<string, string>): Promise<RunningSite> {
    // A child takes its parent's umask when it is spawned.
    const before = process.umask(umask)
    try {
      return await start(env)
    } finally {
      process.umask(before)
    }
  }
  const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8)
  const notPrivate = (server: RunningSite) =>
    server.lines.filter((line) => line.includes('"event":"data-dir-not-private"'))

  it.each(['022', '000'])(
    'under umask %s the folder is 0700 and the database and its journals 0600',
    async (umask) => {
      const dataDir = join(scratch, `fresh-${umask}`, 'data')
      const server = await startUnder(parseInt(umask, 8), { DATA_DIR: dataDir })
      expect((await send(server.origin, 'privada@grupo.mx')).status).toBe(200)
      const file = join(dataDir, SQLITE_FILE)
      expect({
        folder: await modeOf(dataDir),
        database: await modeOf(file),
        wal: await modeOf(`${file}-wal`),
        shm: await modeOf(`${file}-shm`),
      }).toEqual({ folder: '700', database: '600', wal: '600', shm: '600' })
      expect(notPrivate(server)).toEqual([])
    },
  )

  it('a folder made readable by hand is said once at start; files an older version left open are closed', async () => {
    const dataDir = await mkdtemp(join(scratch, 'wide-'))
    const first = await start({ DATA_DIR: dataDir })
    expect((await send(first.origin, 'antes@grupo.mx')).status).toBe(200)
    first.child.kill('SIGTERM')
    await first.exited
    // As a version before this one left them, under umask 022; and the folder opened by hand.
    const file = join(dataDir, SQLITE_FILE)
    for (const each of [file, `${file}-wal`, `${file}-shm`]) {
      await chmod(each, 0o644).catch(() => undefined)
    }
    await chmod(dataDir, 0o755)
    const server = await startUnder(0o022, { DATA_DIR: dataDir })
    expect((await send(server.origin, 'despues@grupo.mx')).status).toBe(200)
    expect(notPrivate(server)).toEqual([
      expect.stringContaining(
        `DATA_DIR ${dataDir} may be read by other users of this machine (mode 0755); it holds personal data: chmod 700 ${dataDir}`,
      ),
    ])
    expect(JSON.parse(notPrivate(server)[0]!)).toMatchObject({ level: 40, mode: '0755' })
    // Left as the operator made it; the store itself is closed to others again.
    expect(await modeOf(dataDir)).toBe('755')
    expect(await modeOf(file)).toBe('600')
    expect(await modeOf(`${file}-wal`)).toBe('600')
  })
})

describe('SHUTDOWN_GRACE_MS', () => {
  it('0 means "do not wait": an idle server stops at once and exits 0', async () => {
    const server = await start({
      DATA_DIR: await mkdtemp(join(scratch, 'data-')),
      SHUTDOWN_GRACE_MS: '0',
    })
    server.child.kill('SIGTERM')
    expect(await server.exited).toEqual({ code: 0, signal: null })
  })

  it('is a duration, not a port: 70000 starts', async () => {
    const server = await start({
      DATA_DIR: await mkdtemp(join(scratch, 'data-')),
      SHUTDOWN_GRACE_MS: '70000',
    })
    expect((await request(server.origin, '/healthz')).status).toBe(200)
  })

  it('a value that is not a duration stops the start and says what it takes', async () => {
    const { code, lines } = await refusal({ SHUTDOWN_GRACE_MS: 'soon' })
    expect(code).toBe(1)
    expect(lines).toEqual([
      'SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 600000, not "soon"',
    ])
  })
})
