// A throwaway PostgreSQL 15 for the server tests, started once for the whole run (the server
// project's global setup): initdb and pg_ctl from Debian's `postgresql` package, in a temporary
// folder, on a free loopback port, as the user postgres when the tests run as root (PostgreSQL
// refuses to run as root). Each test file makes its own databases with freshDatabase().
// `.ci/run` installs the package when it is missing; without it the PostgreSQL tests fail and
// say so, the others run.
import { existsSync } from 'node:fs'
import pg from 'pg'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { POSTGRES_BIN, startPostgresServer } from './postgres-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser's URL of the tests' PostgreSQL; '' when it could not start (and why). */
    postgresUrl: string
    postgresProblem: string
  }
}

export default async function startPostgres(project: TestProject) {
  if (!existsSync(`${POSTGRES_BIN}/initdb`)) {
    project.provide('postgresUrl', '')
    project.provide(
      'postgresProblem',
      `${POSTGRES_BIN}/initdb is missing: apt-get install postgresql`,
    )
    return undefined
  }
  const { url, stop } = await startPostgresServer({ fsync: false })
  project.provide('postgresUrl', url)
  project.provide('postgresProblem', '')
  return stop
}

let counter = 0

/** A new, empty database on the tests' PostgreSQL (or the one at `admin`); its URL. */
export async function freshDatabase(admin = inject('postgresUrl')): Promise<string> {
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
