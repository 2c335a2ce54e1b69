// A PostgreSQL 15 of its own, in a temporary folder on a free loopback port: initdb and pg_ctl
// from Debian's `postgresql` package, run as the user postgres when this runs as root
// (PostgreSQL refuses to run as root). The server tests' global setup (postgres.ts) and the
// lead store's bench start one.
import { execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../free-port.mjs'

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin'
const BIN = POSTGRES_BIN

function asPostgres(command: string, args: string[]): string {
  const root = process.getuid?.() === 0
  return execFileSync(
    root ? 'runuser' : command,
    root ? ['-u', 'postgres', '--', command, ...args] : args,
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
}

/** Starts a PostgreSQL of its own (also for the benches); its superuser URL, and how to stop it. */
export async function startPostgresServer({ fsync = true } = {}): Promise<{
  url: string
  stop: () => void
}> {
  const dir = mkdtempSync(join(tmpdir(), 'gaspre-pg-'))
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }))
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }))
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  const port = await freePort()
  asPostgres(`${BIN}/initdb`, [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
  ])
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200` +
    (fsync ? '' : ' -c fsync=off')
  asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start'])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
