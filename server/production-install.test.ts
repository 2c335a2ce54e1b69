// The production install holds the product and what it runs, nothing else: with only the runtime
// dependencies (`npm ci --omit=dev`), the compiled server serves the site, stores a demo request,
// renders its mail and exports it for the sales team.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFakeDist, type FakeDist } from '../testing/server/fake-dist.js'
import { sendDemoRequest } from '../testing/server/demo-request.js'
import { request } from '../testing/server/http.js'
import { freshDatabase } from '../testing/server/postgres.js'
import { TEST_BUILD_DIR } from '../testing/server/compiled-server.js'
import { REPO_ROOT, startSite, type RunningSite } from '../testing/site.js'

const run = promisify(execFile)
let app: string
let dist: FakeDist
let server: RunningSite | undefined

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'gaspre-production-'))
  await copyFile(join(REPO_ROOT, 'package.json'), join(app, 'package.json'))
  await copyFile(join(REPO_ROOT, 'package-lock.json'), join(app, 'package-lock.json'))
  await run(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    {
      cwd: app,
    },
  )
  // better-sqlite3 compiles its addon at install; the repository's own install already built it
  // for this Node (and testing/server-tests-on-lts.mjs for the LTS line), so it is copied
  // instead of compiled again (minutes on a busy machine).
  for (const built of ['build', 'lib/binding']) {
    const from = join(REPO_ROOT, 'node_modules', 'better-sqlite3', built)
    if (existsSync(from)) {
      await cp(from, join(app, 'node_modules', 'better-sqlite3', built), { recursive: true })
    }
  }
  await cp(TEST_BUILD_DIR, join(app, 'build'), { recursive: true })
  dist = await makeFakeDist()
}, 300_000)
afterAll(async () => {
  if (server?.child.exitCode === null) {
    server.child.kill('SIGTERM')
    await server.exited
  }
  await rm(app, { recursive: true, force: true })
  await rm(dist.root, { recursive: true, force: true })
})

describe('npm ci --omit=dev && node build/server/main.js', () => {
  it('installs only the runtime dependencies the server imports', async () => {
    const installed = (await readdir(join(app, 'node_modules'))).filter(
      (name) => !name.startsWith('.'),
    )
    for (const devOnly of ['puppeteer-core', 'vite', 'typescript', 'vitest']) {
      expect(installed).not.toContain(devOnly)
    }
  })

  it("renders the sales team's mail from its templates (React is a runtime dependency)", async () => {
    const leadMail = join(app, 'build', 'server', 'channels', 'mail', 'lead-mail.js')
    const render = `
      const { leadMail } = await import(${JSON.stringify(leadMail)})
      const record = { id: 'R-1', receivedAt: '2026-11-24T16:05:00.000Z', serviceId: 's',
        templateId: 't', params: { user_name: 'Ana <b>López</b>', user_phone: '5512345678' } }
      process.stdout.write(leadMail(record, 'America/Mexico_City').html)`
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', render], {
      cwd: app,
    })
    expect(stdout).toContain('<strong>Ana &lt;b&gt;López&lt;/b&gt;</strong>')
    expect(stdout).toContain('<a href="tel:+525512345678">Llamar</a>')
  })

  it('serves the site and stores a demo request, and the export runs', async () => {
    const dataDir = join(app, 'data')
    server = await startSite({
      host: 'node',
      server: join(app, 'build', 'server', 'main.js'),
      build: { dir: dist.dist },
      env: { DATA_DIR: dataDir },
    })
    expect((await request(server.origin, '/')).status).toBe(200)
    expect((await sendDemoRequest(server.origin)).status).toBe(200)
    const { stdout } = await run(
      process.execPath,
      [join(app, 'build', 'server', 'cli', 'outbox.js')],
      {
        env: { ...process.env, DATA_DIR: dataDir },
      },
    )
    expect(stdout).toContain('1 solicitud de demo en')
    const xlsx = await run(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${join(app, 'build', 'server', 'cli', 'outbox.js')}" --xlsx | wc -c`,
      ],
      { env: { ...process.env, DATA_DIR: dataDir } },
    )
    expect(Number(xlsx.stdout.trim())).toBeGreaterThan(1000)
  })

  it('stores in PostgreSQL and the commands read it there', async () => {
    server?.child.kill('SIGTERM')
    await server?.exited
    const databaseUrl = await freshDatabase()
    const env = { DIST_DIR: dist.dist, DATA_DIR: join(app, 'data-pg'), DATABASE_URL: databaseUrl }
    server = await startSite({
      host: 'node',
      server: join(app, 'build', 'server', 'main.js'),
      build: { dir: dist.dist },
      env,
    })
    expect((await sendDemoRequest(server.origin)).status).toBe(200)
    const { stdout } = await run(
      process.execPath,
      [join(app, 'build', 'server', 'cli', 'outbox.js'), '--json'],
      { env: { ...process.env, ...env } },
    )
    const lines = stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ params: { user_name: 'Ana López' } })
  })
})
