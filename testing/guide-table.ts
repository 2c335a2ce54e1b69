// The rows of one of the guides' configuration tables, for the tests that hold each table true
// to its schema (server/settings/config.test.ts: docs/production.md; src/config/build-settings.test.ts:
// docs/deploying.md).
import { readFileSync } from 'node:fs'

/**
 * Variable → [meaning, default] for the table between two headings of a guide (a path from the
 * repository's root, where Vitest runs, in Node or in jsdom where import.meta.url is no file).
 */
export function guideTable(guide: string, from: string, to: string): Map<string, [string, string]> {
  const text = readFileSync(guide, 'utf8')
  const start = text.indexOf(from)
  const end = text.indexOf(to, start)
  if (start === -1 || end === -1)
    throw new Error(`${guide} has no section from "${from}" to "${to}"`)
  const section = text.slice(start, end)
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
