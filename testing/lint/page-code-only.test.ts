import { RuleTester } from 'eslint'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { describe, it } from 'vitest'
import { pageCodeOnly } from './page-code-only.mjs'

RuleTester.describe = describe
RuleTester.it = it

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    globals: { ...globals.node, ...globals.browser },
  },
})
const browserGlobals = ['document', 'window', 'location', 'requestAnimationFrame']
const drivesPages = [{ browserGlobals, pageCalls: ['evaluate', 'waitFor'] }]

tester.run('page-code-only', pageCodeOnly, {
  valid: [
    // Written as the argument of a page call, or passed by the name it was declared with.
    { code: 'page.evaluate(() => document.title)', options: drivesPages },
    { code: 'page.evaluate(async () => { await 1; return location.href })', options: drivesPages },
    {
      code: 'const isOpen = () => !!document.querySelector("dialog")\nwaitFor(driver, "open", isOpen)',
      options: drivesPages,
    },
    {
      code: 'function title() { return document.title }\npage.evaluate(title)',
      options: drivesPages,
    },
    // A type is erased, a name declared here is not the global, a property is not a variable.
    { code: 'export const field = (x: unknown) => x as Window', options: drivesPages },
    { code: 'const location = "/tyc"\nexport const path = location', options: drivesPages },
    {
      code: 'export const origin = (driver: { location: string }) => driver.location',
      options: drivesPages,
    },
    {
      code: 'export const wait = () => new Promise((done) => setTimeout(done, 1))',
      options: [{ browserGlobals }],
    },
  ],
  invalid: [
    {
      code: 'export const title = () => document.title',
      options: drivesPages,
      errors: [
        { messageId: 'outsidePage', data: { name: 'document', calls: 'evaluate, waitFor' } },
      ],
    },
    {
      // Only the function handed over runs in the page, not the code around the call.
      code: 'export const at = (page) => page.evaluate((y) => scrollTo(0, y), window.scrollY)',
      options: drivesPages,
      errors: [{ messageId: 'outsidePage', data: { name: 'window', calls: 'evaluate, waitFor' } }],
    },
    {
      code: 'const later = () => requestAnimationFrame(() => {})\nexport const run = () => later()',
      options: drivesPages,
      errors: [{ messageId: 'outsidePage' }],
    },
    {
      // Server code hands nothing to a page.
      code: 'export const width = () => window.innerWidth',
      options: [{ browserGlobals }],
      errors: [{ messageId: 'inNode', data: { name: 'window' } }],
    },
  ],
})
