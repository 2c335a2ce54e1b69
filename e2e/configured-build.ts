import { buildSite, startSite, type RunningSite } from '../testing/site.js'
import { test } from './fixtures'

/**
 * A ceiling, not a timing, for the hook that builds and serves: a build runs beside the suite's
 * other workers and builds, and the editor's has 5 MB to compress.
 */
const BUILD_AND_SERVE_CEILING_MS = 600_000

/**
 * A production build made with settings of its own (test-results/dist-<name>), served by the
 * production server on a free port: a free one, as the same suite may be running in another
 * checkout. Its own render bundle (build/ssr-<name>), so two such builds never share one, and
 * the server the suite's global setup already compiled.
 */
export class ConfiguredBuild {
  readonly outDir: string
  origin = ''
  private site: RunningSite | undefined

  constructor(readonly name: string) {
    this.outDir = `test-results/dist-${name}`
  }

  /**
   * Builds with these settings, then serves the build. The build runs beside the suite's other
   * workers and the journeys (npm test's browsers lane): on a loaded 2-core machine a build with
   * the editor has taken minutes.
   */
  async start(settings: Record<string, string>): Promise<void> {
    // A beforeAll hook has the config's 30 s unless it sets its own; this one needs more.
    test.setTimeout(BUILD_AND_SERVE_CEILING_MS)
    const build = await buildSite({
      outDir: this.outDir,
      ssrDir: `build/ssr-${this.name}`,
      settings,
    })
    this.site = await startSite({
      host: 'node',
      build,
      env: { DATA_DIR: `${this.outDir}-data` },
    })
    this.origin = this.site.origin
  }

  async stop(): Promise<void> {
    await this.site?.stop()
  }
}
