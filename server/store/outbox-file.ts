// The reader of an `outbox.jsonl`: one JSON object per line, as servers before the
// SQLite/PostgreSQL store (decision 018) kept their requests in DATA_DIR. Nothing writes that
// file any more; it is read for the import at start (outbox-import.ts),
// `npm run outbox -- --import`, retention and erasure (outbox-file-erasure.ts).
import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { DemoRequestRecord } from './record.js'

export const OUTBOX_FILE = 'outbox.jsonl'
/** @internal its tests use it too */
export const outboxPath = (dataDir: string): string => join(dataDir, OUTBOX_FILE)

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

/** @internal its tests use it too */
export type OutboxEntry = { record: DemoRequestRecord } | { skipped: true }

/** A line as an entry; null for a blank line. */
function toEntry(line: string): OutboxEntry | null {
  if (line.trim() === '') return null
  const record = parseOutboxLine(line)
  return record === null ? { skipped: true } : { record }
}

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
 * reads in flat memory). Blank lines are ignored; unreadable ones are reported as skipped.
 */
export async function* streamOutbox(
  file: string,
  /** Read only this many bytes: a snapshot of a file the server may still append to. */
  endBytes = Infinity,
): AsyncGenerator<OutboxEntry> {
  if (endBytes <= 0) return
  const handle = await openForReading(file)
  if (handle === null) return
  const lines = createInterface({
    input: handle.createReadStream({
      encoding: 'utf8',
      autoClose: false,
      ...(Number.isFinite(endBytes) && { end: endBytes - 1 }),
    }),
    crlfDelay: Infinity,
  })
  try {
    for await (const line of lines) {
      const entry = toEntry(line)
      if (entry !== null) yield entry
    }
  } finally {
    lines.close()
    await handle.close()
  }
}

interface OutboxContents {
  /** Records in file order (oldest first). */
  records: DemoRequestRecord[]
  /** Lines that could not be read (a torn write); they are skipped, never fatal. */
  skipped: number
}

/**
 * The whole outbox in memory: for tests and small files; the CLI streams instead.
 * @internal its tests use it too
 */
export async function readOutbox(file: string): Promise<OutboxContents> {
  const records: DemoRequestRecord[] = []
  let skipped = 0
  for await (const entry of streamOutbox(file)) {
    if ('record' in entry) records.push(entry.record)
    else skipped++
  }
  return { records, skipped }
}
