// The rows of one of the README's configuration tables, for the tests that hold each table
// true to its schema (server/config.test.ts, src/config/build-settings.test.ts).
import { readFileSync } from 'node:fs'

// Vitest runs from the repository's root, in Node or in jsdom (where import.meta.url is no file).
const README = 'README.md'

/** Variable → [meaning, default] for the table between two headings of the README. */
export function readmeTable(from: string, to: string): Map<string, [string, string]> {
  const readme = readFileSync(README, 'utf8')
  const section = readme.slice(readme.indexOf(from), readme.indexOf(to))
  const rows = new Map<string, [string, string]>()
  for (const line of section.split('\n')) {
    const cells = /^\| `(\w+)` +\| (.+?) +\| (.+?) +\|$/.exec(line)
    if (cells) rows.set(cells[1]!, [cells[2]!, cells[3]!])
  }
  return rows
}

/** What the table should say of each setting, in the schema's order. */
type Described = { description: string; default: string | undefined }

export const expectedRows = (settings: Readonly<Record<string, Described>>) =>
  new Map(
    Object.entries(settings).map(([name, setting]) => [
      name,
      [setting.description, setting.default === undefined ? 'unset' : `\`${setting.default}\``],
    ]),
  )
