// Nothing lost in the move from the JSONL outbox (decision 022). An older server's requests go
// into the store by their ids, so a file imported twice stores each request once.
// `npm run outbox -- --import FILE` imports any file and leaves it as it was. At start the
// server imports DATA_DIR's own outbox.jsonl, then removes it, its bytes overwritten with zeros
// first: every request in it is in the store by then, where the retention period and erasures
// reach it, and a copy beside the store would escape both. Only lines that are no request (a
// torn write) cannot go into the store: they stay in the file, and the start says so each time.
import { open, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { LeadStore } from './lead-store.js'
import type { DemoRequestRecord } from './record.js'
import { OUTBOX_FILE, streamOutbox } from './outbox-file.js'
import { errorText } from '../text/index.js'

/** Where servers before this one noted which file they had imported: no longer read. */
const IMPORTED_NOTE = '.outbox-imported.json'
const BATCH = 500

interface ImportResult {
  /** Requests in the file. */
  read: number
  /** Of those, the ones the store did not hold yet. */
  imported: number
  /** Lines that were not a request (a torn write). */
  unreadable: number
}

/** Imports a JSONL outbox into the store; a missing file imports nothing. */
export async function importOutboxFile(
  store: LeadStore,
  file: string,
  /** Told each line that is not a request, as it was written. */
  onUnreadable: (line: string) => void = () => undefined,
): Promise<ImportResult> {
  const result: ImportResult = { read: 0, imported: 0, unreadable: 0 }
  let batch: DemoRequestRecord[] = []
  const flush = async () => {
    result.imported += await store.importRecords(batch)
    batch = []
  }
  for await (const entry of streamOutbox(file)) {
    if ('unreadable' in entry) {
      result.unreadable++
      onUnreadable(entry.unreadable)
      continue
    }
    result.read++
    batch.push(entry.record)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  return result
}

/** Overwrites the file open as `handle` with zeros, to its end, and syncs it. */
async function zeroFill(handle: FileHandle): Promise<void> {
  const zeros = Buffer.alloc(64 * 1024)
  const { size } = await handle.stat()
  for (let at = 0; at < size; at += zeros.length) {
    await handle.write(zeros, 0, Math.min(zeros.length, size - at), at)
  }
  await handle.datasync()
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

interface TakenIn extends ImportResult {
  /** Whether the file is gone; false while it holds unreadable lines. */
  removed: boolean
}

/**
 * DATA_DIR's outbox.jsonl into the store, and out of DATA_DIR: removed, or left holding only the
 * lines that are no request. Null when there is no such file. The server does it at start; an
 * export or an erasure from the command line before that start does it first, so that it reaches
 * the file's requests too.
 */
export async function takeInDataDirOutbox(
  store: LeadStore,
  dataDir: string,
): Promise<TakenIn | null> {
  const file = join(dataDir, OUTBOX_FILE)
  if ((await stat(file).catch(() => null)) === null) return null
  const unreadable: string[] = []
  const result = await importOutboxFile(store, file, (line) => unreadable.push(line))
  // Held open, the old file's bytes can still be reached once it is gone or replaced.
  const old = await open(file, 'r+')
  try {
    if (unreadable.length === 0) {
      await rm(file)
    } else {
      const next = `${file}.${process.pid}.tmp`
      await writeFile(next, unreadable.map((line) => `${line}\n`).join(''), { mode: 0o600 })
      await rename(next, file)
    }
    await rm(join(dataDir, IMPORTED_NOTE), { force: true })
    await syncDirectory(dataDir)
    await zeroFill(old)
  } finally {
    await old.close()
  }
  return { ...result, removed: unreadable.length === 0 }
}

/** How the start tells what it did (a pino logger's methods). */
interface StartLog {
  info(fields: object, message: string): void
  warn(fields: object, message: string): void
  error(fields: object, message: string): void
}

/**
 * At start: takes in DATA_DIR's outbox.jsonl and says so. A file that cannot be imported is
 * told, and the server serves anyway: the file is kept as it was, for the next start or
 * `npm run outbox -- --import`.
 */
export async function importDataDirOutboxAtStart(
  store: LeadStore,
  dataDir: string,
  log: StartLog,
): Promise<void> {
  const file = join(dataDir, OUTBOX_FILE)
  try {
    const taken = await takeInDataDirOutbox(store, dataDir)
    if (taken === null) return
    log.info(
      { event: 'outbox-imported', ...taken },
      `imported ${taken.imported} new of the ${taken.read} requests in ${file} into ` +
        `${store.location}` +
        (taken.removed ? '; the file is removed: its requests are in the store' : ''),
    )
    if (!taken.removed) {
      log.warn(
        { event: 'outbox-unreadable-lines', lines: taken.unreadable },
        `${file} now holds only ${taken.unreadable} lines that are no request (a torn write): ` +
          'read them, keep what a person can use, and delete the file',
      )
    }
  } catch (error) {
    log.error(
      { event: 'outbox-import-failed', err: error },
      `could not import ${file}: ${errorText(error)}; the file is kept as it was`,
    )
  }
}
