// The reader of an `outbox.jsonl`: one JSON object per line, as servers before the
// SQLite/PostgreSQL store (decision 018) kept their requests in DATA_DIR. Nothing writes that
// format any more; it is read only to be imported (outbox-import.ts, decision 022).
import { open, type FileHandle } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import type { DemoRequestRecord } from './record.js'

export const OUTBOX_FILE = 'outbox.jsonl'

const errnoCode = (error: unknown): string | undefined =>
  (error as NodeJS.ErrnoException | null)?.code

function isRecord(value: unknown): value is DemoRequestRecord {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  const params = record.params
  return (
    typeof record.id === 'string' &&
    typeof record.receivedAt === 'string' &&
    typeof record.serviceId === 'string' &&
    typeof record.templateId === 'string' &&
    typeof params === 'object' &&
    params !== null &&
    Object.values(params).every((param) => typeof param === 'string')
  )
}

/** One outbox line as a record; null for a line that is not one (a torn write). */
function parseOutboxLine(line: string): DemoRequestRecord | null {
  try {
    const value: unknown = JSON.parse(line)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

/**
 * A request, or a line that is none, as it was written.
 * @internal its tests use it too
 */
export type OutboxEntry = { record: DemoRequestRecord } | { unreadable: string }

async function openForReading(file: string): Promise<FileHandle | null> {
  try {
    return await open(file, 'r')
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
}

/**
 * The outbox line by line, oldest first, without holding the file in memory (a 1 GB outbox
 * reads in flat memory). Blank lines are ignored; a missing file has no entry.
 */
export async function* streamOutbox(file: string): AsyncGenerator<OutboxEntry> {
  const handle = await openForReading(file)
  if (handle === null) return
  const lines = createInterface({
    input: handle.createReadStream({ encoding: 'utf8', autoClose: false }),
    crlfDelay: Infinity,
  })
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue
      const record = parseOutboxLine(line)
      yield record === null ? { unreadable: line } : { record }
    }
  } finally {
    lines.close()
    await handle.close()
  }
}
