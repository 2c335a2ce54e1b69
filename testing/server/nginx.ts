// Debian's nginx and the project's configurations, as testing/site.ts runs them (host 'nginx')
// for the tests and the benchmark: each listen line rewritten to a loopback port of its own.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

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

export function nginxConfigFor(port: number, template: string, upstreamPort?: number): string {
  if (!LISTEN_LINE.test(template)) throw new Error('the nginx config has no "listen 8080;" line')
  const listening = template.replace(LISTEN_LINE, `$1listen 127.0.0.1:${port};`)
  if (upstreamPort === undefined) return listening
  if (!UPSTREAM_LINE.test(template)) throw new Error('the nginx config has no upstream on :3000')
  return listening.replace(UPSTREAM_LINE, `$1server 127.0.0.1:${upstreamPort};`)
}
