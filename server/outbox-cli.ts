// `npm run outbox`: lists the demo requests the local stand-in stored, newest first.
// Honours DATA_DIR (default <repo>/.data), like the server.
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { outboxPath, readOutbox, type OutboxRecord } from './outbox.js'

/** Known template params, in the order a reader wants them. */
const LABELS: [string, string][] = [
  ['user_name', 'Name'],
  ['user_email', 'E-mail'],
  ['user_phone', 'Phone'],
  ['user_group', 'Group'],
  ['message', 'Message'],
  ['contact_number', 'Contact number'],
]
const KNOWN = new Set(LABELS.map(([name]) => name))
const WIDTH = 18

function field(label: string, value: string): string {
  // Multi-line messages stay aligned under their label.
  const [first = '', ...rest] = value.split(/\r?\n/)
  const indent = ' '.repeat(WIDTH + 2)
  return [`  ${`${label}:`.padEnd(WIDTH)}${first}`, ...rest.map((line) => indent + line)].join('\n')
}

export function formatRecord(record: OutboxRecord, index: number): string {
  const lines = [`#${index}  ${record.receivedAt}  (${record.id})`]
  for (const [name, label] of LABELS) lines.push(field(label, record.params[name] ?? '—'))
  const others = Object.keys(record.params)
    .filter((name) => !KNOWN.has(name))
    .sort()
  for (const name of others) lines.push(field(name, record.params[name] ?? ''))
  lines.push(field('Service/template', `${record.serviceId} / ${record.templateId}`))
  return lines.join('\n')
}

export function formatOutbox(file: string, records: OutboxRecord[], skipped: number): string {
  if (records.length === 0) {
    return `No demo requests stored yet (looked in ${file}).`
  }
  // Newest first; the file is in arrival order, so ties keep the later line first.
  const newestFirst = records
    .map((record, order) => ({ record, order }))
    .sort((a, b) => b.record.receivedAt.localeCompare(a.record.receivedAt) || b.order - a.order)
  const blocks = newestFirst.map(({ record }, i) => formatRecord(record, records.length - i))
  const count = `${records.length} demo request${records.length === 1 ? '' : 's'}`
  const torn = skipped > 0 ? ` (${skipped} unreadable line${skipped === 1 ? '' : 's'} skipped)` : ''
  return [`${count} in ${file}, newest first${torn}:`, '', blocks.join('\n\n')].join('\n')
}

async function main(): Promise<void> {
  const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
  const file = outboxPath(resolve(process.env.DATA_DIR ?? resolve(repoRoot, '.data')))
  const { records, skipped } = await readOutbox(file)
  console.log(formatOutbox(file, records, skipped))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`outbox: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  })
}
