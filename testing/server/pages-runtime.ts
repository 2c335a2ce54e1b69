// Runs Cloudflare's own local runtime for Pages (`wrangler pages dev`, on workerd) over a build,
// for the tests: the asset server, `_headers` and `_redirects` handling of a Pages deployment,
// which Netlify's files follow too. It runs offline, on a loopback port it picks itself, and its
// whole process group (wrangler, its worker process, esbuild, workerd) is stopped with it.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { wranglerBin } from '../tools/install.mjs'
import { request } from './http.js'
import type { StaticHostWays } from './serving-checks.js'

/**
 * wrangler 4.86 is the last release that runs on Node 20; its workerd (1.20260426) refuses a
 * compatibility date later than its own, so the date is pinned with it.
 */
export const PAGES_COMPATIBILITY_DATE = '2026-04-26'

/** Where Cloudflare Pages does things its own way (Netlify's defaults are the same). */
export const PAGES_WAYS: StaticHostWays = {
  pageCache: 'public, max-age=0, must-revalidate',
  missingCache: 'no-store',
  htmlFileRedirects: true,
  homeKeepsQuery: true,
  missingFileGoesHome: true,
}

function resolveWrangler(): string | null {
  try {
    return wranglerBin()
  } catch (error) {
    console.warn(`wrangler could not be installed (testing/tools/): ${String(error)}`)
    return null
  }
}

/** wrangler's command-line entry (testing/tools/, installed on first use), or null if it fails. */
export const WRANGLER_BIN = resolveWrangler()

export interface PagesRuntime {
  url: string
  /** The process group of wrangler and everything it started. */
  groupId: number
  /** What wrangler printed, line by line: the rules it parsed and any it ignored. */
  lines: string[]
  stop(): Promise<void>
}

/** A ceiling for one start on a loaded machine; readiness itself is polled, not waited for. */
const START_CEILING_MS = 90_000
const STOP_CEILING_MS = 10_000

/**
 * Whether a process of the group still runs. On Linux /proc tells a zombie (exited, waiting for
 * its parent to collect it) from a running process; elsewhere a signal 0 probe has to do.
 */
export function groupAlive(groupId: number): boolean {
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    try {
      process.kill(-groupId, 0)
      return true
    } catch {
      return false
    }
  }
  return entries.some((pid) => {
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its closing ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return Number(group) === groupId && state !== 'Z'
    } catch {
      return false // it ended while being read
    }
  })
}

const signalGroup = (groupId: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-groupId, signal)
  } catch {
    // The group is already gone.
  }
}

const pause = (ms: number) => new Promise((wait) => setTimeout(wait, ms))

export async function startPagesRuntime(distDir: string): Promise<PagesRuntime> {
  if (WRANGLER_BIN === null) throw new Error('wrangler is not installed (testing/tools/)')
  const home = await mkdtemp(join(tmpdir(), 'gaspre-pages-'))
  const child = spawn(
    process.execPath,
    [
      WRANGLER_BIN,
      'pages',
      'dev',
      resolve(distDir),
      '--ip',
      '127.0.0.1',
      '--port',
      '0',
      '--compatibility-date',
      PAGES_COMPATIBILITY_DATE,
      '--persist-to',
      join(home, 'state'),
      '--show-interactive-dev-session=false',
    ],
    {
      // Its own directory: no wrangler.toml is picked up and no .wrangler/ lands in the repo.
      cwd: home,
      // Its own process group, so stop() reaches workerd and esbuild as well as wrangler.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // Offline and quiet: no metrics, no error reports, no update check (the banner is what
        // asks the registry for a newer wrangler), no fetch of Request.cf from Cloudflare.
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_SEND_ERROR_REPORTS: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        XDG_CONFIG_HOME: join(home, 'config'),
        WRANGLER_LOG_PATH: join(home, 'logs'),
        FORCE_COLOR: '0',
      },
    },
  )
  const groupId = child.pid
  if (groupId === undefined) throw new Error('wrangler did not start')
  // Never leave a runtime behind, even when the test run itself is cut short.
  const killOnExit = () => signalGroup(groupId, 'SIGKILL')
  process.once('exit', killOnExit)

  const lines: string[] = []
  const collect = () => {
    let partial = ''
    return (chunk: Buffer): void => {
      const parts = (partial + chunk.toString()).split('\n')
      partial = parts.pop() ?? ''
      lines.push(...parts.filter((line) => line.trim() !== ''))
    }
  }
  child.stdout?.on('data', collect())
  child.stderr?.on('data', collect())

  const stop = async (): Promise<void> => {
    signalGroup(groupId, 'SIGTERM')
    for (let waited = 0; groupAlive(groupId) && waited < STOP_CEILING_MS; waited += 50) {
      await pause(50)
    }
    signalGroup(groupId, 'SIGKILL')
    for (let waited = 0; groupAlive(groupId) && waited < STOP_CEILING_MS; waited += 20) {
      await pause(20)
    }
    process.removeListener('exit', killOnExit)
    await rm(home, { recursive: true, force: true })
  }

  const started = Date.now()
  for (;;) {
    const url = lines
      .map((line) => /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1])
      .find((ready) => ready !== undefined)
    if (url !== undefined) {
      const answer = await request(url, '/').catch(() => null)
      if (answer !== null) return { url, groupId, lines, stop }
    }
    if (child.exitCode !== null || Date.now() - started > START_CEILING_MS) {
      await stop()
      throw new Error(`wrangler pages dev did not start:\n${lines.join('\n')}`)
    }
    await pause(50)
  }
}
