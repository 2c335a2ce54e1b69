// Closes the run with one line per engine, so CI's last lines say how each engine did.
import { basename } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

export default class EngineCountReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    console.log('\nJourneys per engine')
    for (const module of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId))) {
      const engine = basename(module.moduleId, '.test.ts')
      const count = (state: 'passed' | 'failed' | 'skipped') =>
        [...module.children.allTests(state)].length
      const failed =
        count('failed') + (module.state() === 'failed' && count('failed') === 0 ? 1 : 0)
      console.log(
        `  ${engine}: ${count('passed')} passed, ${failed} failed, ${count('skipped')} skipped`,
      )
    }
  }
}
