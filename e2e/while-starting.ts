// A development server's start as a person meets it: the page is opened (or the editor asks its
// proxy) the moment the port accepts connections, before the server says it is ready. Every such
// request must get an answer, the one it gets once the server has started.
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from '../testing/free-port.mjs'
import { waitUntil } from '../testing/wait-until.js'

interface Answers {
  /** The status of each request sent before the server said it was ready. */
  whileStarting: number[]
  /** The status of the same requests once it had. */
  onceStarted: number[]
  /** Whether the server had printed `readyLine` when the first requests went out. */
  readyWhenSent: boolean
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })

/** GET `path` on 127.0.0.1:`port`; the status, with a ceiling far above any start. */
const statusOf = async (port: number, path: string): Promise<number> => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    redirect: 'manual',
    signal: AbortSignal.timeout(240_000),
  })
  await response.body?.cancel()
  return response.status
}

/**
 * Starts `script` in `root` on free ports (the variables `portVariables` name), sends a GET of
 * `path` to each port as soon as the first accepts connections, then again once the script has
 * printed `readyLine`; stops the script.
 */
export async function requestsWhileStarting(options: {
  root: string
  script: string
  env: Record<string, string>
  portVariables: string[]
  path: string
  readyLine: RegExp
}): Promise<Answers> {
  const ports = await Promise.all(options.portVariables.map(() => freePort()))
  const output: string[] = []
  const child = spawn(process.execPath, [options.script], {
    cwd: options.root,
    env: {
      ...process.env,
      ...options.env,
      ...Object.fromEntries(options.portVariables.map((name, i) => [name, String(ports[i])])),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const exited = new Promise((done) => child.once('exit', done))
  const isReady = () => options.readyLine.test(output.join(''))
  try {
    await waitUntil(async () => (await Promise.all(ports.map(accepts))).every(Boolean), {
      what: `${options.script} accepts connections on its ports`,
      intervalMs: 5,
      timeoutMs: 240_000,
      details: () => output.join(''),
    })
    const readyWhenSent = isReady()
    const whileStarting = await Promise.all(ports.map((port) => statusOf(port, options.path)))
    await waitUntil(isReady, {
      what: `${options.script} prints ${options.readyLine}`,
      timeoutMs: 240_000,
      details: () => output.join(''),
    })
    const onceStarted = await Promise.all(ports.map((port) => statusOf(port, options.path)))
    return { whileStarting, onceStarted, readyWhenSent }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}
