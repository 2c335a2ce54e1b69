// A real CalDAV server for the booking tests: Debian's Radicale (`.ci/run` installs `radicale`),
// started by the test on a free loopback port with a temporary storage folder and no
// configuration file (the machine's /etc/radicale/config is not read). Any password is taken
// (auth `none`) and each user owns their own collections (`owner_only`): the rep's calendar is
// the user `ana`'s, and its address carries that user, as a team file would. A test makes the
// calendar with MKCALENDAR and PUTs its events (RFC 4791, 5.3.1 and 5.3.2).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { madeForThisFile } from './per-file.js'
import { REP_EVENTS } from './rep-calendar.js'

export interface Radicale {
  /** `http://127.0.0.1:PORT` */
  origin: string
  /** Makes a calendar collection at `path` (`/ana/trabajo/`); its address, with the user in it. */
  calendar(path: string): Promise<string>
  /** Stores one iCalendar object (an event with its changed occurrences) in a calendar. */
  put(calendar: string, name: string, ics: string): Promise<void>
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function answered(origin: string, child: ChildProcess, output: () => string) {
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`radicale stopped: ${output()}`)
    try {
      const response = await fetch(`${origin}/`, { method: 'OPTIONS' })
      await response.body?.cancel()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw new Error(`radicale did not answer: ${output()}`)
}

/** The user `ana`, whose collections the tests use (any password is taken). */
const AS_ANA = { authorization: `Basic ${Buffer.from('ana:clave').toString('base64')}` }

async function expectStatus(response: Response, what: string, ...statuses: number[]) {
  const text = await response.text()
  if (!statuses.includes(response.status)) {
    throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`)
  }
}

export async function startRadicale(): Promise<Radicale> {
  const folder = await mkdtemp(join(tmpdir(), 'gaspre-radicale-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  let output = ''
  const child = spawn(
    'radicale',
    [
      '--config',
      '',
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--storage-filesystem-folder',
      folder,
      '--auth-type',
      'none',
      '--rights-type',
      'owner_only',
      '--logging-level',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    await rm(folder, { recursive: true, force: true })
  }
  try {
    await answered(origin, child, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    origin,
    async calendar(path) {
      const parent = path.replace(/[^/]+\/$/, '')
      if (parent !== '/') {
        await expectStatus(
          await fetch(`${origin}${parent}`, { method: 'MKCOL', headers: AS_ANA }),
          `MKCOL ${parent}`,
          201,
          405,
          409,
        )
      }
      await expectStatus(
        await fetch(`${origin}${path}`, { method: 'MKCALENDAR', headers: AS_ANA }),
        `MKCALENDAR ${path}`,
        201,
      )
      return `http://ana:clave@127.0.0.1:${port}${path}`
    },
    async put(calendar, name, ics) {
      await expectStatus(
        await fetch(`${calendar.replace('ana:clave@', '')}${name}`, {
          method: 'PUT',
          headers: { 'content-type': 'text/calendar; charset=utf-8', ...AS_ANA },
          body: ics,
        }),
        `PUT ${name}`,
        201,
        204,
      )
    },
    stop,
  }
}

/** The rep's calendar as a CalDAV server serves it to a test file. */
export interface RepCalendar {
  radicale: Radicale
  /** The address of Ana's calendar, `/ana/trabajo/`, holding the rep's week (REP_EVENTS). */
  collection: string
}

/** Radicale started before the file's tests with the rep's calendar in it, stopped after them. */
export function repCalendarForThisFile(): RepCalendar {
  return madeForThisFile(
    "the rep's calendar",
    async () => {
      const radicale = await startRadicale()
      try {
        const collection = await radicale.calendar('/ana/trabajo/')
        for (const [name, ics] of Object.entries(REP_EVENTS)) {
          await radicale.put(collection, name, ics)
        }
        return { radicale, collection }
      } catch (error) {
        await radicale.stop()
        throw error
      }
    },
    (served) => served.radicale.stop(),
  )
}
