// The one way a test or a bench runs the site: served by our production server (host 'node'), by
// Debian's nginx with deploy/'s configuration ('nginx'), by Cloudflare's local runtime for Pages
// ('pages'), by the development server ('dev'), or by a server a site brings along (the benches'
// SPA peer, 'own-server'). Each one listens on a loopback port of its own, so suites and
// checkouts run side by side; startSite resolves once it answers, and stop() once nothing of it
// is left. Every wait in it is waitUntil's (wait-until.ts).
import { execFileSync, spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { staleReason } from '../pipeline/build-stamp.mjs'
import { freePort } from './free-port.mjs'
import { NGINX_BIN, NGINX_CONF, nginxConfigFor } from './server/nginx.js'
import { PAGES_COMPATIBILITY_DATE, WRANGLER_BIN } from './server/pages-runtime.js'
import { waitUntil } from './wait-until.js'

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * What a host serves: this working tree's dist/, built first when it is missing or was built from
 * other sources or settings (the browser suites), or a folder served as it is.
 */
type BuildToServe = 'working-tree' | { dir: string }

interface CommonOptions {
  build: BuildToServe
  /** Over this process's environment. */
  env?: Record<string, string>
  /** The most to wait for the first answer on a loaded machine: a ceiling, never a timing. */
  timeoutMs?: number
}

interface NodeSiteOptions extends CommonOptions {
  host: 'node'
  /** The compiled server to run; build/server/main.js by default. */
  server?: string
  /** Start it as an operator does, with `npm start` in a checkout that holds `server`. */
  viaNpmStart?: boolean
  /**
   * The browser suites' one fault from the server itself: a demo request from
   * FULL_DISK_DOMAIN (testing/full-disk.mjs) finds the disk full. Runs the build's own server
   * with that seam in its store (testing/server-with-full-disk.mjs), so it needs build/server/.
   */
  withFullDisk?: boolean
  /** Options for node before the server's script, such as `--import` of a bench's probe. */
  nodeOptions?: string[]
  /** An IPC channel to the server (a bench asks it for its memory figures). */
  ipc?: boolean
  /** Write what it prints to this file instead of keeping its lines (a bench's log under load). */
  logFile?: string
  /** Another user to run as (root's tests only). */
  user?: { uid: number; gid: number }
  /** Pass what it writes to stderr on to this process's: a suite's server that fails says why. */
  showErrors?: boolean
}

interface NginxSiteOptions extends CommonOptions {
  host: 'nginx'
  /** The configuration to run: deploy/nginx.conf by default. */
  config?: string
  /** For deploy/nginx-node.conf: the origin of the Node server behind it. */
  upstream?: string
}

interface PagesSiteOptions extends CommonOptions {
  host: 'pages'
}

interface OwnServerSiteOptions extends Omit<CommonOptions, 'build'> {
  host: 'own-server'
  /** The server's command, with its arguments for a port it is given. */
  command: string
  args: (port: number) => string[]
  cwd: string
  /** The path that answers 200 once the site is ready. */
  readyPath: string
}

interface DevSiteOptions extends Omit<CommonOptions, 'build'> {
  host: 'dev'
  /** The project it runs in: a copy of this one, for a test that edits files through it. */
  root: string
  /** scripts/dev.mjs, or the editor's start (npm run cms), which serves the site beside it. */
  script: string
}

type SiteOptions =
  NodeSiteOptions | NginxSiteOptions | PagesSiteOptions | OwnServerSiteOptions | DevSiteOptions

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

/** A site's process, whether or not it came to answer. */
export interface SiteProcess {
  child: ChildProcess
  /** Everything it printed so far, stdout and stderr, line by line (none with logFile). */
  lines: string[]
  exited: Promise<ProcessExit>
  /** How it exited, once it has (or never started). */
  exit(): ProcessExit | undefined
  /** Stops it and everything it started, and removes the host's own working folder. */
  stop(): Promise<void>
}

export interface RunningSite extends SiteProcess {
  /** Where it answers, such as http://127.0.0.1:41234 (no trailing slash). */
  origin: string
  /** The host's own working folder (nginx's prefix, wrangler's home), if it has one. */
  workDir?: string
}

/**
 * This process's environment without NODE_ENV: Vitest sets it to 'test', and a build made under
 * it (npm start's first build, the working tree's) would ship React's development build.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.NODE_ENV
  return env
}

const DEFAULT_START_CEILING_MS = 90_000
const STOP_CEILING_MS = 10_000
/** What the production server prints once it listens (server/main.ts). */
const LISTENING_LINE = /^Listening on (http:\/\/\S+?)\/?$/m
/** What the development server prints once it listens (scripts/dev.mjs). */
const DEVELOPMENT_LINE = /^Development server on (http:\/\/[^/\s]+)\//m
/** What wrangler prints once the Pages runtime listens. */
const PAGES_READY_LINE = /Ready on (http:\/\/127\.0\.0\.1:\d+)/

interface BuildSiteOptions {
  /** Where the pages go (BUILD_OUT_DIR). */
  outDir: string
  /** Its own render bundle (BUILD_SSR_DIR), so two builds at once never share one. */
  ssrDir: string
  /** The compiled server it reuses (BUILD_SERVER_DIR): build/server/ unless given. */
  serverDir?: string
  /** Its settings (SITE_URL, VITE_*, …), over `baseEnv`. */
  settings: Record<string, string>
  /** The environment under the settings: this process's unless given. */
  baseEnv?: NodeJS.ProcessEnv
}

/**
 * A production build with settings of its own, beside dist/ (`node pipeline/build.mjs` as a
 * child, so a test's own timeout can still stop it). Resolves with what it served from; rejects
 * with what the build printed.
 */
export async function buildSite(options: BuildSiteOptions): Promise<{ dir: string }> {
  const env: NodeJS.ProcessEnv = {
    ...(options.baseEnv ?? inheritedEnv()),
    BUILD_OUT_DIR: options.outDir,
    BUILD_SSR_DIR: options.ssrDir,
    BUILD_SERVER: 'reuse',
    ...(options.serverDir !== undefined && { BUILD_SERVER_DIR: options.serverDir }),
    ...options.settings,
  }
  const build = spawn(process.execPath, ['pipeline/build.mjs'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((done, fail) => {
    build.once('error', fail)
    build.once('close', done)
  })
  if (code !== 0) throw new Error(`the build of ${options.outDir} failed (${code}):\n${output}`)
  return { dir: resolve(REPO_ROOT, options.outDir) }
}

/** Starts the site and resolves once it answers; rejects with what it printed if it never does. */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  switch (options.host) {
    case 'node':
      return startNode(options)
    case 'nginx':
      return startNginx(options)
    case 'pages':
      return startPages(options)
    case 'own-server':
      return startOwnServer(options)
    case 'dev':
      return startDev(options)
  }
}

/**
 * Starts the production server without waiting for it: for the tests of a server that refuses
 * to start, which read how it exited and what it printed.
 */
export function spawnSite(options: NodeSiteOptions): SiteProcess {
  const { command, args, cwd } = nodeCommand(options)
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe']
  let log: number | undefined
  if (options.logFile !== undefined) {
    log = openSync(options.logFile, 'w')
    stdio[1] = log
    stdio[2] = log
  }
  if (options.ipc) stdio.push('ipc')
  const site = launch(command, args, {
    cwd,
    stdio,
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DIST_DIR: distDir(options.build),
      ...options.env,
    },
    ...options.user,
  })
  if (options.showErrors) site.child.stderr?.pipe(process.stderr)
  if (log !== undefined) {
    const file = log
    void site.exited.then(() => closeSync(file))
  }
  return site
}

/**
 * A checkout as an operator has it for `npm start`: package.json and the start script, with
 * build/server/ linked to the compiled server to run. `npm start` in the repository itself
 * would build there when build/server/ is missing, as on a fresh clone, while the build lane
 * of `npm test` writes the same folders. Removed when the process exits.
 */
function npmStartCheckout(server = join(REPO_ROOT, 'build/server/main.js')): string {
  const root = mkdtempSync(join(tmpdir(), 'gaspre-npm-start-'))
  for (const file of ['package.json', 'scripts/start.mjs', 'pipeline/build-stamp.mjs']) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    copyFileSync(join(REPO_ROOT, file), join(root, file))
  }
  mkdirSync(join(root, 'build'))
  symlinkSync(dirname(server), join(root, 'build/server'))
  process.once('exit', () => rmSync(root, { recursive: true, force: true }))
  return root
}

/** The folder a build is served from; the working tree's is built first when it is stale. */
function distDir(build: BuildToServe): string {
  if (build !== 'working-tree') return resolve(build.dir)
  const dist = join(REPO_ROOT, 'dist')
  const stale = existsSync(join(REPO_ROOT, 'build/server/main.js'))
    ? staleReason(dist)
    : 'there is no build/server/'
  if (stale) {
    console.log(`${stale}: building before the tests.`)
    execFileSync('npm', ['run', 'build', '--silent'], {
      cwd: REPO_ROOT,
      env: inheritedEnv(),
      stdio: 'inherit',
    })
  }
  return dist
}

function nodeCommand(options: NodeSiteOptions): { command: string; args: string[]; cwd: string } {
  if (options.viaNpmStart)
    return { command: 'npm', args: ['start'], cwd: npmStartCheckout(options.server) }
  const script = options.withFullDisk
    ? join(REPO_ROOT, 'testing/server-with-full-disk.mjs')
    : (options.server ?? join(REPO_ROOT, 'build/server/main.js'))
  return {
    command: process.execPath,
    args: [...(options.nodeOptions ?? []), script],
    cwd: REPO_ROOT,
  }
}

async function startNode(options: NodeSiteOptions): Promise<RunningSite> {
  const site = spawnSite(options)
  const printed = (): string =>
    options.logFile === undefined ? site.lines.join('\n') : readFileSync(options.logFile, 'utf8')
  const origin = await untilReady(site, () => LISTENING_LINE.exec(printed())?.[1], {
    what: 'the server prints the address it listens on',
    timeoutMs: options.timeoutMs,
    details: printed,
  })
  return { ...site, origin }
}

async function startNginx(options: NginxSiteOptions): Promise<RunningSite> {
  const prefix = await mkdtemp(join(tmpdir(), 'gaspre-nginx-'))
  // nginx's workers run as an unprivileged user when started by root: they must traverse here.
  await chmod(prefix, 0o755)
  await Promise.all(['logs', 'tmp', 'deploy'].map((dir) => mkdir(join(prefix, dir))))
  await symlink(distDir(options.build), join(prefix, 'dist'))
  const port = await freePort()
  const upstreamPort =
    options.upstream === undefined ? undefined : Number(new URL(options.upstream).port)
  await writeFile(
    join(prefix, 'deploy', 'nginx.conf'),
    nginxConfigFor(port, await readFile(options.config ?? NGINX_CONF, 'utf8'), upstreamPort),
  )
  const site = launch(
    NGINX_BIN,
    ['-p', `${prefix}/`, '-c', 'deploy/nginx.conf', '-g', 'daemon off;'],
    {
      cwd: prefix,
      env: options.env ?? {},
      // SIGQUIT is nginx's graceful stop: it finishes the requests in flight.
      stopSignal: 'SIGQUIT',
      workDir: prefix,
    },
  )
  const errorLog = (): string => {
    try {
      return [...site.lines, readFileSync(join(prefix, 'logs', 'error.log'), 'utf8')].join('\n')
    } catch {
      return site.lines.join('\n')
    }
  }
  await untilReady(site, () => canConnect(port), {
    what: `nginx accepts connections on port ${port}`,
    timeoutMs: options.timeoutMs,
    details: errorLog,
  })
  return { ...site, origin: `http://127.0.0.1:${port}`, workDir: prefix }
}

async function startPages(options: PagesSiteOptions): Promise<RunningSite> {
  if (WRANGLER_BIN === null) throw new Error('wrangler is not installed (testing/tools/)')
  const home = await mkdtemp(join(tmpdir(), 'gaspre-pages-'))
  const args = [
    WRANGLER_BIN,
    ...['pages', 'dev', distDir(options.build), '--ip', '127.0.0.1', '--port', '0'],
    ...['--compatibility-date', PAGES_COMPATIBILITY_DATE, '--persist-to', join(home, 'state')],
    '--show-interactive-dev-session=false',
  ]
  const site = launch(process.execPath, args, {
    // Its own directory: no wrangler.toml is picked up and no .wrangler/ lands in the repo.
    cwd: home,
    // Its own process group, so stop() reaches workerd and esbuild as well as wrangler.
    processGroup: true,
    workDir: home,
    env: {
      // Offline and quiet: no metrics, no error reports, no update check (the banner is what
      // asks the registry for a newer wrangler), no fetch of Request.cf from Cloudflare.
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      XDG_CONFIG_HOME: join(home, 'config'),
      WRANGLER_LOG_PATH: join(home, 'logs'),
      FORCE_COLOR: '0',
      ...options.env,
    },
  })
  const origin = await untilReady(
    site,
    async () => {
      const ready = site.lines
        .map((line) => PAGES_READY_LINE.exec(line)?.[1])
        .find((url) => url !== undefined)
      // It prints the line a moment before its worker answers.
      return ready !== undefined && (await answers(`${ready}/`)) ? ready : undefined
    },
    {
      what: 'wrangler pages dev answers',
      timeoutMs: options.timeoutMs,
      details: () => site.lines.join('\n'),
    },
  )
  return { ...site, origin, workDir: home }
}

async function startOwnServer(options: OwnServerSiteOptions): Promise<RunningSite> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const site = launch(options.command, options.args(port), {
    cwd: options.cwd,
    env: options.env ?? {},
  })
  await untilReady(site, () => answers(`${origin}${options.readyPath}`), {
    what: `${origin}${options.readyPath} answers 200`,
    timeoutMs: options.timeoutMs,
    details: () => site.lines.join('\n'),
  })
  return { ...site, origin }
}

async function startDev(options: DevSiteOptions): Promise<RunningSite> {
  const site = launch(process.execPath, [join(options.root, options.script)], {
    cwd: options.root,
    env: { PORT: '0', ...options.env },
  })
  // Vite's and the editor's warnings, as a developer would see them.
  site.child.stderr?.pipe(process.stderr)
  const origin = await untilReady(site, () => DEVELOPMENT_LINE.exec(site.lines.join('\n'))?.[1], {
    what: `${options.script} prints where it listens`,
    timeoutMs: options.timeoutMs,
    details: () => site.lines.join('\n'),
  })
  return { ...site, origin }
}

/** Waits for `look`, giving up as soon as the site exits; a site that never answers is stopped. */
async function untilReady<T>(
  site: SiteProcess,
  look: () => T | Promise<T>,
  options: { what: string; timeoutMs: number | undefined; details: () => string },
) {
  try {
    return await waitUntil(look, {
      what: options.what,
      timeoutMs: options.timeoutMs ?? DEFAULT_START_CEILING_MS,
      intervalMs: 25,
      giveUpIf: () => {
        const exit = site.exit()
        return exit === undefined ? undefined : `it exited with ${exit.code ?? exit.signal}`
      },
      details: options.details,
    })
  } catch (error) {
    await site.stop()
    throw error
  }
}

interface LaunchOptions {
  cwd: string
  /** Over this process's environment. */
  env: Record<string, string>
  stdio?: StdioOptions
  uid?: number
  gid?: number
  /** Leads a process group of its own: stop() signals all of it. */
  processGroup?: boolean
  stopSignal?: NodeJS.Signals
  /** A folder of the host's own, removed once it stopped. */
  workDir?: string
}

function launch(command: string, args: string[], options: LaunchOptions): SiteProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...inheritedEnv(), ...options.env },
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup === true,
    ...(options.uid !== undefined && { uid: options.uid }),
    ...(options.gid !== undefined && { gid: options.gid }),
  })
  const lines: string[] = []
  // A chunk may end in the middle of a line: the rest waits for the next chunk of its stream.
  const collector = () => {
    let partial = ''
    return (chunk: Buffer): void => {
      const parts = (partial + chunk.toString()).split('\n')
      partial = parts.pop() ?? ''
      lines.push(...parts.filter((line) => line.trim() !== ''))
    }
  }
  child.stdout?.on('data', collector())
  child.stderr?.on('data', collector())
  let ended: ProcessExit | undefined
  const exited = new Promise<ProcessExit>((done) => {
    child.once('exit', (code, signal) => done((ended = { code, signal })))
    // A command that cannot be started exits without an 'exit' event.
    child.once('error', (error) => {
      lines.push(`${command} did not start: ${error.message}`)
      if (child.pid === undefined) done((ended = { code: null, signal: null }))
    })
  })
  const groupId = options.processGroup ? child.pid : undefined
  const signal = (name: NodeJS.Signals): void => {
    try {
      if (groupId !== undefined) process.kill(-groupId, name)
      else child.kill(name)
    } catch {
      // Already gone.
    }
  }
  const gone = (): boolean =>
    groupId !== undefined ? !processGroupAlive(groupId) : ended !== undefined
  // Never leave a site behind, even when the test run itself is cut short.
  const killOnExit = () => signal('SIGKILL')
  process.once('exit', killOnExit)
  // A process group may outlive its leader: only stop() lets go of it.
  if (groupId === undefined) child.once('exit', () => process.removeListener('exit', killOnExit))

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit)
    if (!gone()) {
      signal(options.stopSignal ?? 'SIGTERM')
      const stopped = await waitUntil(gone, {
        what: `${command} stops`,
        timeoutMs: STOP_CEILING_MS,
      }).catch(() => false)
      if (!stopped) {
        signal('SIGKILL')
        await waitUntil(gone, { what: `${command} is killed`, timeoutMs: STOP_CEILING_MS })
      }
    }
    if (groupId === undefined) await exited
    if (options.workDir !== undefined) await rm(options.workDir, { recursive: true, force: true })
  }
  return { child, lines, exited, exit: () => ended, stop }
}

/** Whether a process still runs, by a signal 0 probe (a zombie not yet collected counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Whether a process of the group still runs. On Linux /proc tells a zombie (exited, waiting for
 * its parent to collect it) from a running process; elsewhere a signal 0 probe has to do.
 */
export function processGroupAlive(groupId: number): boolean {
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

function canConnect(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

/** Whether a GET of `url` answers 200; a refused connection is a no. */
const answers = (url: string): Promise<boolean> =>
  fetch(url).then(
    async (response) => {
      await response.body?.cancel()
      return response.ok
    },
    () => false,
  )

/**
 * The browser suites' site (Playwright's and the journeys'): this tree's production build,
 * started as `npm start` starts it, with the full-disk seam, storing in SQLite in `dataDir`
 * (`DATA_DIR=<dataDir> npm run outbox` lists what the tests sent). Every test sends from
 * 127.0.0.1, so the rate limits are lifted; the server tests check them.
 */
export function startSuiteSite(dataDir: string): Promise<RunningSite> {
  return startSite({
    host: 'node',
    build: 'working-tree',
    withFullDisk: true,
    showErrors: true,
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    },
  })
}
