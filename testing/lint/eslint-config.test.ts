import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The project's own eslint.config.js on a few lines placed where they would break a boundary.
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname })

/** The rules a snippet breaks, as if it were the file at `filePath`. */
async function brokenRules(filePath: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result?.messages.map((message) => message.ruleId) ?? []
}

describe('the lint configuration', () => {
  it('refuses an import that goes up the layers of src/ (decision 007)', async () => {
    const importsSection = "import { Hero } from '../sections/hero'\nexport const x = Hero\n"
    expect(await brokenRules('src/components/probe.tsx', importsSection)).toEqual([
      'boundaries/dependencies',
    ])
    expect(await brokenRules('src/pages/probe.tsx', importsSection)).toEqual([])
  })

  it('keeps the rooms of server/ one-way, each entered through its face (decision 019)', async () => {
    const importsIntake =
      "import { demoIntake } from '../intake/index.js'\nexport const x = demoIntake\n"
    expect(await brokenRules('server/store/probe.ts', importsIntake)).toEqual([
      'boundaries/dependencies',
    ])
    // The intake sits above the demo-request service it calls: the command line may import it.
    expect(await brokenRules('server/cli/probe.ts', importsIntake)).toEqual([])
    expect(await brokenRules('server/delivery/probe.ts', importsIntake)).toEqual([
      'boundaries/dependencies',
    ])
    const reachesInside =
      "import { openLeadStore } from '../store/lead-store.js'\nexport const x = openLeadStore\n"
    expect(await brokenRules('server/intake/probe.ts', reachesInside)).toEqual([
      'boundaries/dependencies',
    ])
    expect(
      await brokenRules('server/intake/probe.ts', reachesInside.replace('lead-store', 'index')),
    ).toEqual([])
    // Inside its own room a file imports its neighbours directly.
    expect(
      await brokenRules('server/store/probe.ts', reachesInside.replace('../store/', './')),
    ).toEqual([])
  })

  it('keeps rules pure: no page, storage or network', async () => {
    for (const code of [
      'export const here = () => window.location.href\n',
      "export const saved = () => localStorage.getItem('x')\n",
      "export const send = () => fetch('/api')\n",
    ]) {
      expect(await brokenRules('src/rules/probe.ts', code), code).toEqual(['no-restricted-globals'])
    }
  })

  it("gives each environment only its own globals: Node's on the server, the browser's in src/", async () => {
    const readsWindow = 'export const width = () => window.innerWidth\n'
    const readsProcess = 'export const mode = process.env.NODE_ENV\n'
    expect(await brokenRules('server/probe.ts', readsWindow)).toEqual(['local/page-code-only'])
    expect(await brokenRules('server/probe.ts', readsProcess)).toEqual([])
    expect(await brokenRules('src/browser/probe.ts', readsProcess)).toEqual([
      'no-restricted-globals',
    ])
    expect(await brokenRules('src/browser/probe.ts', readsWindow)).toEqual([])
    // Build-time sources run in Node.
    expect(await brokenRules('src/config/build-settings.ts', readsProcess)).toEqual([])
  })

  it('lets test code name the browser only inside what it hands to the page', async () => {
    const code = [
      "import type { Page } from '@playwright/test'",
      'export const inPage = (page: Page) => page.evaluate(() => document.title)',
      'export const inNode = () => document.title',
      '',
    ].join('\n')
    const [result] = await eslint.lintText(code, { filePath: 'e2e/probe.spec.ts' })
    expect(result?.messages.map(({ ruleId, line }) => ({ ruleId, line }))).toEqual([
      { ruleId: 'local/page-code-only', line: 3 },
    ])
  })
})
