// Runs Debian's nginx with deploy/nginx.conf on a loopback port, for the tests and the
// benchmark: a temporary prefix holds a link to the dist being served, the config (its listen
// line rewritten to the chosen port) and nginx's logs, pid and temp files.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../free-port.mjs'

export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx'
const deployFile = (name: string): string =>
  fileURLToPath(new URL(`../../deploy/${name}`, import.meta.url))
/** deploy/nginx.conf: nginx serving the build by itself. */
export const NGINX_CONF = deployFile('nginx.conf')
/** deploy/nginx-node.conf: nginx as the Node server's reverse proxy. */
export const NGINX_NODE_CONF = deployFile('nginx-node.conf')

const LISTEN_LINE = /^(\s*)listen 8080;.*$/m
const UPSTREAM_LINE = /^(\s*)server 127\.0\.0\.1:3000;.*$/m

export const nginxInstalled = (): boolean => existsSync(NGINX_BIN)

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

export interface NginxServer {
  url: string
  prefix: string
  stop(): Promise<void>
}

export function nginxConfigFor(port: number, template: string, upstreamPort?: number): string {
  if (!LISTEN_LINE.test(template)) throw new Error('the nginx config has no "listen 8080;" line')
  const listening = template.replace(LISTEN_LINE, `$1listen 127.0.0.1:${port};`)
  if (upstreamPort === undefined) return listening
  if (!UPSTREAM_LINE.test(template)) throw new Error('the nginx config has no upstream on :3000')
  return listening.replace(UPSTREAM_LINE, `$1server 127.0.0.1:${upstreamPort};`)
}

export interface NginxOptions {
  /** The configuration to run (deploy/nginx.conf by default). */
  config?: string
  /** For deploy/nginx-node.conf: the port of the Node server behind it. */
  upstreamPort?: number
  timeoutMs?: number
}

export async function startNginx(
  distDir: string,
  { config = NGINX_CONF, upstreamPort, timeoutMs = 10_000 }: NginxOptions = {},
): Promise<NginxServer> {
  const prefix = await mkdtemp(join(tmpdir(), 'gaspre-nginx-'))
  // nginx's workers run as an unprivileged user when started by root: they must traverse here.
  await chmod(prefix, 0o755)
  await Promise.all(['logs', 'tmp', 'deploy'].map((dir) => mkdir(join(prefix, dir))))
  await symlink(resolve(distDir), join(prefix, 'dist'))
  const port = await freePort()
  await writeFile(
    join(prefix, 'deploy', 'nginx.conf'),
    nginxConfigFor(port, await readFile(config, 'utf8'), upstreamPort),
  )
  const child: ChildProcess = spawn(
    NGINX_BIN,
    ['-p', `${prefix}/`, '-c', 'deploy/nginx.conf', '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT') // graceful: finish in-flight requests
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    await rm(prefix, { recursive: true, force: true })
  }

  const deadline = Date.now() + timeoutMs
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = await readFile(join(prefix, 'logs', 'error.log'), 'utf8').catch(() => '')
      await stop()
      throw new Error(`nginx did not start on port ${port}:\n${stderr}${log}`)
    }
    await new Promise((wait) => setTimeout(wait, 50))
  }
  return { url: `http://127.0.0.1:${port}`, prefix, stop }
}
