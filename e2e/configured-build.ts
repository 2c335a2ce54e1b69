import { spawn, type ChildProcess } from 'node:child_process'
import { freePort } from '../testing/free-port.mjs'
import { expect, test } from './fixtures'

/**
 * A ceiling, not a timing, for the hook that builds and serves: a build runs beside the suite's
 * other workers and builds, and the editor's has 5 MB to compress.
 */
const BUILD_AND_SERVE_CEILING_MS = 600_000

/**
 * A production build made with settings of its own (test-results/dist-<name>), served by the
 * production server on a free port: a free one, as the same suite may be running in another
 * checkout. Its own render bundle (build/ssr-<name>), so two such builds never share one, and
 * the server the suite's web server already compiled.
 */
export class ConfiguredBuild {
  readonly outDir: string
  origin = ''
  private server: ChildProcess | undefined

  constructor(readonly name: string) {
    this.outDir = `test-results/dist-${name}`
  }

  /**
   * Builds with these settings, then serves the build. The build runs beside the suite's other
   * workers and the journeys (npm test's browsers lane): on a loaded 2-core machine a build with
   * the editor has taken minutes, so it runs as a child the test's own timeout can still stop.
   */
  async start(settings: Record<string, string>): Promise<void> {
    // A beforeAll hook has the config's 30 s unless it sets its own; this one needs more.
    test.setTimeout(BUILD_AND_SERVE_CEILING_MS)
    const build = spawn('node', ['pipeline/build.mjs'], {
      env: {
        ...process.env,
        BUILD_OUT_DIR: this.outDir,
        BUILD_SSR_DIR: `build/ssr-${this.name}`,
        BUILD_SERVER: 'reuse',
        ...settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let buildOutput = ''
    build.stdout.on('data', (chunk: Buffer) => (buildOutput += chunk.toString()))
    build.stderr.on('data', (chunk: Buffer) => (buildOutput += chunk.toString()))
    const status = await new Promise<number | null>((done) => build.once('close', done))
    expect(status, buildOutput).toBe(0)
    const port = await freePort()
    this.origin = `http://127.0.0.1:${port}`
    const server = spawn('node', ['build/server/main.js'], {
      env: {
        ...process.env,
        PORT: String(port),
        DIST_DIR: this.outDir,
        DATA_DIR: `${this.outDir}-data`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.server = server
    // What the server said, so a server that never answers tells why.
    let output = ''
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    // A ceiling, not a timing: the server starts in well under a second on a quiet machine.
    await expect
      .poll(
        async () => {
          if (server.exitCode !== null) return `exited (${server.exitCode}): ${output}`
          return (await fetch(`${this.origin}/healthz`).catch(() => null))?.status
        },
        { timeout: 60_000 },
      )
      .toBe(200)
  }

  stop(): void {
    this.server?.kill('SIGTERM')
  }
}
