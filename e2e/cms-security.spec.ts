import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { join } from 'node:path'
import { freePort } from '../testing/free-port.mjs'
import { expect, test } from './fixtures'
import { ProjectCopy } from './project-copy'

/**
 * `npm run cms` serves its editor and its local proxy to the editor's own page only: a page on
 * another local port (a tool, a demo, a page reached by DNS rebinding) can neither read the
 * visitors' data nor write a file that would run at the next npm command.
 */
const project = new ProjectCopy('cms-security-project')
let origin = ''
let otherSite: Server
let otherOrigin = ''

const OUTBOX = '{"name":"Ana Pérez","email":"ana@example.com","phone":"5512345678"}\n'
/** Files an attack would write, none of which may appear. */
const WRITTEN = ['scripts/pwn.mjs', 'public/pwn.html', 'pwn.html']

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
  {
    action: 'persistEntry',
    params: {
      branch: 'main',
      entry: { slug: 'x', path: 'content/../public/pwn.html', raw: '<script>alert(1)</script>' },
      assets: [],
      options: { collectionName: 'x', commitMessage: 'x', useWorkflow: false, status: '' },
    },
  },
]

/** A request from Node, with the Host and Origin it names (a browser cannot forge either). */
function send(
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolveAnswer, reject) => {
    const outgoing = httpRequest(
      { hostname, port, path, method: body === undefined ? 'GET' : 'POST', headers },
      (incoming) => {
        let text = ''
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()))
        incoming.on('end', () => resolveAnswer({ status: incoming.statusCode ?? 0, text }))
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
    origin = await project.start('scripts/cms.mjs', { PORT: '0' })
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
    await page.goto(`${otherOrigin}/`)
    const answers = await page.evaluate(
      async ({ origin, attacks }) => {
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
              fetch(`${origin}/admin/api/v1`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
              }),
            ),
          )
          // …and as a plain form post, which the browser sends without asking.
          results.push(
            await tell(() =>
              fetch(`${origin}/admin/api/v1`, { method: 'POST', mode: 'no-cors', body }),
            ),
          )
        }
        results.push(await tell(() => fetch(`${origin}/.data/outbox.jsonl`)))
        results.push(await tell(() => fetch(`${origin}/content/inicio.yml`)))
        return results
      },
      { origin, attacks: ATTACKS },
    )
    expect(answers).toHaveLength(ATTACKS.length * 2 + 2)
    for (const answer of answers) expect(answer).toMatch(/^(refused: TypeError|opaque)/)
    expect(answers.join('\n')).not.toContain('ana@example.com')
    // The browser reports each refusal: those are the only errors.
    for (const error of consoleErrors)
      expect(error).toMatch(/CORS policy|net::ERR_FAILED|status of 40[34]/)
    consoleErrors.length = 0
  })

  test('the proxy refuses another Origin, another Host and any path that leaves content/', async () => {
    const json = { 'content-type': 'application/json' }
    const editor = { ...json, origin, host: new URL(origin).host }
    const info = JSON.stringify({ action: 'info' })
    // The editor itself is answered…
    expect((await send('/admin/api/v1', editor, info)).status).toBe(200)
    // …a page elsewhere, or the editor's origin under a rebound name, is not.
    expect((await send('/admin/api/v1', { ...editor, origin: otherOrigin }, info)).status).toBe(403)
    expect((await send('/admin/api/v1', { ...editor, host: 'rebind.example' }, info)).status).toBe(
      403,
    )
    expect(
      (
        await send(
          '/admin/api/v1',
          {
            ...editor,
            host: `rebind.example:${new URL(origin).port}`,
            origin: 'http://rebind.example',
          },
          info,
        )
      ).status,
    ).toBe(403)
    // Even from the editor's own page, nothing outside content/ is read or written.
    for (const attack of ATTACKS) {
      const answer = await send('/admin/api/v1', editor, JSON.stringify(attack))
      expect(answer.status, JSON.stringify(attack.params)).toBe(403)
      expect(answer.text).not.toContain('ana@example.com')
    }
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

  test('on a busy port, says so in one line and exits 1', async () => {
    const child = spawn('node', [join(project.root, 'scripts/cms.mjs')], {
      cwd: project.root,
      env: { ...process.env, PORT: new URL(origin).port },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise((exited) => child.once('exit', exited))
    expect(code).toBe(1)
    expect(output.trim().split('\n')).toEqual([
      `El puerto ${new URL(origin).port} de 127.0.0.1 está ocupado: cierra lo que lo usa o elige otro, por ejemplo PORT=${Number(new URL(origin).port) + 1} npm run cms`,
    ])
  })

  test('a SIGTERM to npm stops every process it started', async () => {
    await copyFile('package.json', join(project.root, 'package.json'))
    const port = await freePort()
    const npm = spawn('npm', ['run', 'cms'], {
      cwd: project.root,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    await new Promise<void>((listening) =>
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Editor de contenido')) listening()
      }),
    )
    const started = processesUnder(npm.pid!)
    expect(started.length).toBeGreaterThan(0)
    npm.kill('SIGTERM')
    await new Promise((exited) => npm.once('exit', exited))
    await expect.poll(() => started.filter(isRunning), { timeout: 20_000 }).toEqual([])
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/`).then(
            () => 'answered',
            () => 'closed',
          ),
        { timeout: 20_000 },
      )
      .toBe('closed')
  })
})

/** Every process below `pid`, by their parent ids (Linux's /proc). */
function processesUnder(pid: number): number[] {
  // ps exits 1 when there is none.
  const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0)
  return children.flatMap((child) => [child, ...processesUnder(child)])
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
