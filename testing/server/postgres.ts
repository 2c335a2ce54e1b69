// A throwaway PostgreSQL 15 for the server tests, started once for the whole run (the server
// project's global setup): initdb and pg_ctl from Debian's `postgresql` package, in a temporary
// folder, on a free loopback port, as the user postgres when the tests run as root (PostgreSQL
// refuses to run as root). Each test file makes its own databases with freshDatabase().
// `.ci/run` installs the package when it is missing; without it the PostgreSQL tests fail and
// say so, the others run.
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { freePort } from '../free-port.mjs'

const BIN = '/usr/lib/postgresql/15/bin'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser's URL of the tests' PostgreSQL; '' when it could not start (and why). */
    postgresUrl: string
    postgresProblem: string
  }
}

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

export default async function startPostgres(project: TestProject) {
  if (!existsSync(`${BIN}/initdb`)) {
    project.provide('postgresUrl', '')
    project.provide('postgresProblem', `${BIN}/initdb is missing: apt-get install postgresql`)
    return undefined
  }
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
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start'])
  project.provide('postgresUrl', `postgres://postgres@127.0.0.1:${port}/postgres`)
  project.provide('postgresProblem', '')
  return () => {
    try {
      asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', 'stop'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

let counter = 0

/** A new, empty database on the tests' PostgreSQL; its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = inject('postgresUrl')
  if (admin === '') throw new Error(`no PostgreSQL for the tests: ${inject('postgresProblem')}`)
  const name = `t_${process.pid}_${Date.now()}_${counter++}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    await client.query(`create database ${name}`)
  } finally {
    await client.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}
