// Runs the compiled server as `npm start` would, for the tests that need a real process:
// signals, crashes, restarts, console output. It is compiled to build/test-server-node<N>/, not
// build/server/, so these tests can run while `npm run build` writes build/server/ (npm test
// runs them side by side), and while the same tests run on the other supported Node line.
// One level below build/, as build/server/ is: the server finds the repository at ../../.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUT_DIR = `build/test-server-node${process.versions.node.split('.')[0]}`
/** Where compileServer() writes the compiled tree (server/ and the src/ modules it imports). */
export const TEST_BUILD_DIR = `${REPO_ROOT}${OUT_DIR}`
/** Where compileServer() writes the server itself. */
export const TEST_SERVER_DIR = `${TEST_BUILD_DIR}/server`
export const MAIN_JS = `${TEST_SERVER_DIR}/main.js`
export const OUTBOX_CLI_JS = `${TEST_SERVER_DIR}/outbox-cli.js`

/** Compiles server/ as `npm run build` does, into the tests' own directory. */
export function compileServer(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json', '--outDir', OUT_DIR], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  })
}

export interface SpawnedServer {
  url: string
  child: ChildProcess
  /** Everything printed so far, stdout and stderr, line by line. */
  lines: string[]
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface RunOptions {
  /** Another user to run as (root's tests only). */
  uid?: number
  gid?: number
  /** Another compiled server to run (a production install's). */
  main?: string
}

export function runServer(
  env: Record<string, string>,
  { main = MAIN_JS, ...user }: RunOptions = {},
): Omit<SpawnedServer, 'url'> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  })
  const lines: string[] = []
  // A chunk may end in the middle of a line: the rest waits for the next chunk of its stream.
  const collector = () => {
    let partial = ''
    return (chunk: Buffer): void => {
      const parts = (partial + chunk.toString()).split('\n')
      partial = parts.pop() ?? ''
      lines.push(...parts.filter((line) => line !== ''))
    }
  }
  child.stdout?.on('data', collector())
  child.stderr?.on('data', collector())
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  return { child, lines, exited }
}

/** Starts the server and resolves once it prints the URL it listens on. */
export async function spawnServer(
  env: Record<string, string>,
  { timeoutMs = 10_000, ...options }: RunOptions & { timeoutMs?: number } = {},
) {
  const server = runServer(env, options)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const listening = server.lines
      .map((line) => /^Listening on (http:\/\/\S+?)\/?$/.exec(line)?.[1])
      .find((url) => url !== undefined)
    if (listening !== undefined) return { ...server, url: listening } satisfies SpawnedServer
    if (server.child.exitCode !== null || Date.now() > deadline) {
      server.child.kill('SIGKILL')
      throw new Error(`the server did not start:\n${server.lines.join('\n')}`)
    }
    await new Promise((wait) => setTimeout(wait, 25))
  }
}
