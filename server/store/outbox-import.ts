// Nothing lost in the move: the requests an older server kept in DATA_DIR/outbox.jsonl go into
// the store by their ids, so importing the same file twice stores each request once. The import
// only reads the file (only erasures change it: outbox-file-erasure.ts). main.ts imports
// DATA_DIR's outbox.jsonl at start (once: a note beside it remembers the file it imported);
// `npm run outbox -- --import FILE` imports any.
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LeadStore } from './lead-store.js'
import type { DemoRequestRecord } from './record.js'
import { OUTBOX_FILE, streamOutbox } from './outbox-file.js'

/** Beside the file: which file was imported (outbox-file-erasure.ts keeps it true). */
export const IMPORTED_NOTE = '.outbox-imported.json'
const BATCH = 500

interface ImportResult {
  /** Requests in the file. */
  read: number
  /** Of those, the ones the store did not hold yet. */
  imported: number
  /** Lines that were not a request (a torn write). */
  skipped: number
}

/** Imports a JSONL outbox into the store; a missing file imports nothing. */
export async function importOutboxFile(store: LeadStore, file: string): Promise<ImportResult> {
  const result: ImportResult = { read: 0, imported: 0, skipped: 0 }
  let batch: DemoRequestRecord[] = []
  const flush = async () => {
    result.imported += await store.importRecords(batch)
    batch = []
  }
  for await (const entry of streamOutbox(file)) {
    if (!('record' in entry)) {
      result.skipped++
      continue
    }
    result.read++
    batch.push(entry.record)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  return result
}

/** What the note says of a file imported into the store at `location`. */
export const importedStamp = (stats: { size: number; mtimeMs: number }, location: string) =>
  `${stats.size}:${stats.mtimeMs}:${location}`

/**
 * At start: imports DATA_DIR's outbox.jsonl unless this very file (its size and time) was
 * imported before. Null when there is nothing to import.
 */
export async function importDataDirOutbox(
  store: LeadStore,
  dataDir: string,
): Promise<ImportResult | null> {
  const file = join(dataDir, OUTBOX_FILE)
  const stats = await stat(file).catch(() => null)
  if (stats === null || stats.size === 0) return null
  const seen = importedStamp(stats, store.location)
  const note = join(dataDir, IMPORTED_NOTE)
  const before = await readFile(note, 'utf8').catch(() => '')
  if (before.trim() === seen) return null
  const result = await importOutboxFile(store, file)
  await writeFile(note, `${seen}\n`)
  return result
}
