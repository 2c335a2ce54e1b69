import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http'
import { join } from 'node:path'
import { freePort } from '../testing/free-port.mjs'
import { processAlive } from '../testing/site'
import { expect, test } from './fixtures'
import { ProjectCopy } from './project-copy'

/**
 * `npm run cms` serves its editor, and its local proxy on a port of its own, to the editor's own
 * page only: a page on another local port (a tool, a demo, a page reached by DNS rebinding) can
 * neither read the visitors' data nor write a file that would run at the next npm command.
 */
const project = new ProjectCopy('cms-security-project')
/** The editor's origin (the development server). */
let origin = ''
/** The proxy's address, http://127.0.0.1:<CMS_PROXY_PORT>/api/v1. */
let proxy = ''
let otherSite: Server
let otherOrigin = ''

const OUTBOX = '{"name":"Ana Pérez","email":"ana@example.com","phone":"5512345678"}\n'
/** Files an attack would write, none of which may appear. */
const WRITTEN = ['scripts/pwn.mjs', 'public/pwn.html', 'pwn.html']

/** Decap CMS's local proxy command that writes one entry's file, as the editor sends it. */
const persistEntry = (
  collectionName: string,
  entry: { slug: string; path: string; raw: string },
) => ({
  action: 'persistEntry',
  params: {
    branch: 'main',
    entry,
    assets: [],
    options: { collectionName, commitMessage: 'x', useWorkflow: false, status: '' },
  },
})

/** The proxy's actions an attack tries: a read outside content/, writes, a path escape. */
const ATTACKS = [
  { action: 'getMediaFile', params: { branch: 'main', path: '.data/outbox.jsonl' } },
  { action: 'getMediaFile', params: { branch: 'main', path: 'content/../.data/outbox.jsonl' } },
  { action: 'getMedia', params: { branch: 'main', mediaFolder: '.data' } },
  { action: 'entriesByFiles', params: { branch: 'main', files: [{ path: 'package.json' }] } },
  {
    action: 'persistMedia',
    params: {
      branch: 'main',
      asset: { path: 'scripts/pwn.mjs', content: 'Y29uc29sZS5sb2coMSk=', encoding: 'base64' },
      options: { commitMessage: 'x' },
    },
  },
  {
    action: 'persistMedia',
    params: {
      branch: 'main',
      asset: { path: 'content/imagenes/../../pwn.html', content: 'PHA+', encoding: 'base64' },
      options: { commitMessage: 'x' },
    },
  },
  persistEntry('x', {
    slug: 'x',
    path: 'content/../public/pwn.html',
    raw: '<script>alert(1)</script>',
  }),
]

/**
 * What a page elsewhere would ask of content/ itself: the editor may, nobody else. The write
 * would replace the home page's file.
 */
const CONTENT_ATTACKS = [
  { action: 'getEntry', params: { branch: 'main', path: 'content/inicio.yml' } },
  persistEntry('contenido', { slug: 'inicio', path: 'content/inicio.yml', raw: 'hero: pwned\n' }),
]

type Answer = { status: number; text: string; headers: IncomingHttpHeaders }

/**
 * A request from Node to the development server (or, given a full address, to that address),
 * with the Host and Origin it names (a browser cannot forge either).
 */
function send(
  path: string,
  headers: Record<string, string>,
  body?: string,
  method = body === undefined ? 'GET' : 'POST',
): Promise<Answer> {
  const address = new URL(path, origin)
  return new Promise((resolveAnswer, reject) => {
    const outgoing = httpRequest(
      {
        hostname: address.hostname,
        port: address.port,
        path: address.pathname,
        method,
        headers,
      },
      (incoming) => {
        let text = ''
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()))
        incoming.on('end', () =>
          resolveAnswer({ status: incoming.statusCode ?? 0, text, headers: incoming.headers }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

test.describe('npm run cms, seen from elsewhere', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 })
  test.beforeAll(async () => {
    test.skip(test.info().project.name !== 'desktop', 'one editor is enough')
    await project.create()
    await mkdir(join(project.root, '.data'), { recursive: true })
    await writeFile(join(project.root, '.data/outbox.jsonl'), OUTBOX)
    // Free ports, both: the suite may run beside a developer's own npm run cms.
    origin = await project.start('editor/start.mjs', { PORT: '0', CMS_PROXY_PORT: '0' })
    proxy = await project.printed(/Proxy del editor: (http:\/\/\S+)/)
    otherSite = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>x</title>'),
    )
    const port = await freePort()
    await new Promise<void>((listening) => otherSite.listen(port, '127.0.0.1', listening))
    otherOrigin = `http://127.0.0.1:${port}`
  })
  test.afterAll(() => {
    project.stop()
    otherSite?.close()
  })
  test.afterEach(() => {
    for (const file of WRITTEN) expect(existsSync(join(project.root, file)), file).toBe(false)
  })

  test('a page on another local port reads and writes nothing through the proxy or the server', async ({
    page,
    consoleErrors,
  }) => {
    const home = await project.read('content/inicio.yml')
    await page.goto(`${otherOrigin}/`)
    const answers = await page.evaluate(
      async ({ origin, proxy, attacks }) => {
        const tell = async (attempt: () => Promise<Response>) => {
          try {
            const response = await attempt()
            return response.type === 'opaque'
              ? 'opaque'
              : `${response.status} ${await response.text()}`
          } catch (error) {
            return `refused: ${String(error)}`
          }
        }
        const results: string[] = []
        for (const attack of attacks) {
          const body = JSON.stringify(attack)
          // As the editor sends it (the browser asks the proxy first, which says no)…
          results.push(
            await tell(() =>
              fetch(proxy, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
              }),
            ),
          )
          // …and as a plain form post, which the browser sends without asking.
          results.push(await tell(() => fetch(proxy, { method: 'POST', mode: 'no-cors', body })))
        }
        results.push(await tell(() => fetch(`${origin}/.data/outbox.jsonl`)))
        results.push(await tell(() => fetch(`${origin}/content/inicio.yml`)))
        return results
      },
      { origin, proxy, attacks: [...ATTACKS, ...CONTENT_ATTACKS] },
    )
    expect(answers).toHaveLength((ATTACKS.length + CONTENT_ATTACKS.length) * 2 + 2)
    for (const answer of answers) expect(answer).toMatch(/^(refused: TypeError|opaque)/)
    expect(answers.join('\n')).not.toContain('ana@example.com')
    expect(answers.join('\n')).not.toContain('hero:')
    expect(await project.read('content/inicio.yml')).toBe(home)
    // The browser reports each refusal: those are the only errors.
    for (const error of consoleErrors)
      expect(error).toMatch(/CORS policy|net::ERR_FAILED|status of 40[34]/)
    consoleErrors.length = 0
  })

  test('the editor’s own page reads content/ through the proxy on its port', async ({ page }) => {
    // A page the development server serves at the editor's exact origin, under the editor's
    // policy, without Decap's bundle: the browser's own checks (its policy, the preflight, then
    // the post) are what is tried.
    await page.goto(`${origin}/admin/logo.svg`)
    const answers = await page.evaluate(
      async ({ proxy, messages }) => {
        const answers: string[] = []
        for (const message of messages) {
          const response = await fetch(proxy, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(message),
          })
          answers.push(`${response.status} ${await response.text()}`)
        }
        return answers
      },
      { proxy, messages: [{ action: 'info' }, CONTENT_ATTACKS[0]] },
    )
    expect(answers[0]).toMatch(/^200 .*"type":"local_fs"/)
    expect(answers[1]).toMatch(/^200 /)
    expect(JSON.parse(answers[1]!.slice(4)).data).toBe(await project.read('content/inicio.yml'))
  })

  test('the proxy refuses another Origin, another Host and any path that leaves content/', async () => {
    const json = { 'content-type': 'application/json' }
    const proxyHost = new URL(proxy).host
    const editor = { ...json, origin, host: proxyHost }
    const info = JSON.stringify({ action: 'info' })
    // The editor itself is answered, from its page on another port of the same host…
    const answered = await send(proxy, { ...editor, 'sec-fetch-site': 'same-site' }, info)
    expect(answered.status).toBe(200)
    expect(answered.headers['access-control-allow-origin']).toBe(origin)
    expect(answered.headers.vary).toBe('Origin')
    // …and its preflight allows a JSON post, for its origin alone.
    const preflight = await send(proxy, editor, undefined, 'OPTIONS')
    expect(preflight.status).toBe(204)
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'content-type',
      vary: 'Origin',
    })
    // A page elsewhere, or the editor's origin under a rebound name, is not: 403 and no CORS.
    const strangers = [
      { ...editor, origin: otherOrigin },
      { ...editor, origin: 'null' },
      { ...json, host: proxyHost },
      { ...editor, 'sec-fetch-site': 'cross-site' },
      { ...editor, host: 'rebind.example' },
      { ...editor, host: `rebind.example:${new URL(proxy).port}`, origin: 'http://rebind.example' },
      { ...editor, host: `localhost:${new URL(proxy).port}` },
      { ...editor, host: new URL(origin).host },
    ]
    for (const headers of strangers)
      for (const method of ['POST', 'OPTIONS']) {
        const answer = await send(proxy, headers, method === 'POST' ? info : undefined, method)
        expect(answer.status, `${method} ${JSON.stringify(headers)}`).toBe(403)
        const cors = Object.keys(answer.headers).filter((name) =>
          name.startsWith('access-control-'),
        )
        expect(cors).toEqual([])
      }
    // Even from the editor's own page, nothing outside content/ is read or written.
    for (const attack of ATTACKS) {
      const answer = await send(proxy, editor, JSON.stringify(attack))
      expect(answer.status, JSON.stringify(attack.params)).toBe(403)
      expect(answer.text).not.toContain('ana@example.com')
    }
    // One proxy: the development server has none.
    const devServer = { ...editor, host: new URL(origin).host }
    expect((await send('/admin/api/v1', devServer, info)).status).toBe(404)
    expect((await send('/api/v1', devServer, info)).status).toBe(404)
  })

  test('the server answers no other Host on any route, and never serves .data or the builds', async () => {
    for (const path of ['/', '/admin/', '/admin/config.yml', '/api/demo-requests', '/src/main.tsx'])
      expect((await send(path, { host: 'rebind.example' })).status, path).toBe(403)
    for (const path of [
      '/.data/outbox.jsonl',
      '/%2edata/outbox.jsonl',
      `/@fs${project.root}/.data/outbox.jsonl`,
      '/.git/config',
      '/dist/index.html',
      '/build/server/main.js',
    ]) {
      const answer = await send(path, { host: new URL(origin).host })
      expect(answer.status, path).toBe(404)
      expect(answer.text).not.toContain('ana@example.com')
    }
  })

  test('on a busy port, its own or its proxy’s, says so in one line and exits 1', async () => {
    const port = new URL(origin).port
    const proxyPort = new URL(proxy).port
    expect(await runCms({ PORT: port, CMS_PROXY_PORT: '0' })).toEqual({
      code: 1,
      lines: [
        `El puerto ${port} de 127.0.0.1 está ocupado: cierra lo que lo usa o elige otro, por ejemplo PORT=${Number(port) + 1} npm run cms`,
      ],
    })
    expect(await runCms({ PORT: '0', CMS_PROXY_PORT: proxyPort })).toEqual({
      code: 1,
      lines: [
        `El puerto ${proxyPort} de 127.0.0.1, el del proxy del editor, está ocupado: cierra lo que lo usa o elige otro, por ejemplo CMS_PROXY_PORT=${Number(proxyPort) + 1} npm run cms`,
      ],
    })
  })

  test('a SIGTERM to npm stops every process it started', async () => {
    await copyFile('package.json', join(project.root, 'package.json'))
    const port = await freePort()
    const proxyPort = await freePort()
    const npm = spawn('npm', ['run', 'cms'], {
      cwd: project.root,
      env: {
        ...process.env,
        PORT: String(port),
        CMS_PROXY_PORT: String(proxyPort),
        // Its own: the suite's editor holds the project's .data, as one server per DATA_DIR.
        DATA_DIR: join(project.root, '.data-sigterm'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    await new Promise<void>((listening) =>
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Proxy del editor')) listening()
      }),
    )
    const started = processesUnder(npm.pid!)
    expect(started.length).toBeGreaterThan(0)
    npm.kill('SIGTERM')
    await new Promise((exited) => npm.once('exit', exited))
    await expect.poll(() => started.filter(processAlive), { timeout: 20_000 }).toEqual([])
    for (const address of [`http://127.0.0.1:${port}/`, `http://127.0.0.1:${proxyPort}/api/v1`])
      await expect
        .poll(
          () =>
            fetch(address).then(
              () => 'answered',
              () => 'closed',
            ),
          { timeout: 20_000 },
        )
        .toBe('closed')
  })
})

/** Runs the copy's npm run cms with `env` until it exits: its exit code and what it printed. */
async function runCms(env: Record<string, string>): Promise<{ code: unknown; lines: string[] }> {
  const child = spawn('node', [join(project.root, 'editor/start.mjs')], {
    cwd: project.root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise((exited) => child.once('exit', exited))
  return { code, lines: output.trim().split('\n') }
}

/** Every process below `pid`, by their parent ids (Linux's /proc). */
function processesUnder(pid: number): number[] {
  // ps exits 1 when there is none.
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0)
  return children.flatMap((child) => [child, ...processesUnder(child)])
}
