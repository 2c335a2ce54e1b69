// Erasure reaches DATA_DIR/outbox.jsonl too. An older server kept its requests there; the
// server imports the file at start and leaves it in place as a copy, so the requests an erasure
// or the retention period removes from the store would live on in it, and come back into the
// store if it were imported again (into PostgreSQL, say). So the file is rewritten without
// those lines: a new file written beside it and renamed over it (a crash leaves the old file or
// the new one, never half of one), the old bytes overwritten with zeros before they are let go,
// and the file removed once no line is left. Unreadable lines (a torn write: a request that
// was never stored, whose date cannot be read) go with the first rewrite. The note that the
// file was imported is kept true, so a rewritten file is not imported again. A lock beside the
// file lets one rewrite at a time (the server's retention, `npm run outbox -- --erase`): two at
// once would each write its own copy, and the later one bring back what the other took out.
import { open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import lockfile from 'proper-lockfile'
import { IMPORTED_NOTE, importedStamp } from './outbox-import.js'
import type { DemoRequestRecord } from './record.js'
import { OUTBOX_FILE, streamOutbox } from './outbox-file.js'

interface OutboxLines {
  /** Requests the erasure took out. */
  removed: number
  /** Unreadable lines taken out with them. */
  unreadable: number
  /** Whether no line was left, so the file is gone. */
  fileRemoved: boolean
}

const ZEROS = Buffer.alloc(64 * 1024)

/** How many requests of DATA_DIR's outbox.jsonl `pick` picks (0 without the file). */
export async function countInDataDirOutbox(
  dataDir: string,
  pick: (record: DemoRequestRecord) => boolean,
): Promise<number> {
  let count = 0
  for await (const entry of streamOutbox(join(dataDir, OUTBOX_FILE))) {
    if ('record' in entry && pick(entry.record)) count++
  }
  return count
}

/** Overwrites the file open as `handle` with zeros, to its end, and syncs it. */
async function zeroFill(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat()
  for (let at = 0; at < size; at += ZEROS.length) {
    await handle.write(ZEROS, 0, Math.min(ZEROS.length, size - at), at)
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

/**
 * Takes the requests `drop` picks out of DATA_DIR/outbox.jsonl. `location` is the store the
 * file was imported into (the note names it). Null when there is no such file.
 */
export async function dropFromDataDirOutbox(
  dataDir: string,
  location: string,
  drop: (record: DemoRequestRecord) => boolean,
): Promise<OutboxLines | null> {
  const file = join(dataDir, OUTBOX_FILE)
  if ((await stat(file).catch(() => null)) === null) return null
  const release = await lockfile.lock(file, {
    lockfilePath: `${file}.rewrite.lock`,
    realpath: false,
    retries: { retries: 50, minTimeout: 50, maxTimeout: 1000 },
  })
  try {
    return await rewrite(file, location, drop)
  } finally {
    await release()
  }
}

async function rewrite(
  file: string,
  location: string,
  drop: (record: DemoRequestRecord) => boolean,
): Promise<OutboxLines | null> {
  const dataDir = dirname(file)
  const before = await stat(file).catch(() => null)
  if (before === null) return null
  const note = join(dataDir, IMPORTED_NOTE)
  const wasImported =
    (await readFile(note, 'utf8').catch(() => '')).trim() === importedStamp(before, location)

  // A first pass, so that a daily run with nothing to take out writes nothing.
  if ((await countInDataDirOutbox(dataDir, drop)) === 0) {
    return { removed: 0, unreadable: 0, fileRemoved: false }
  }
  const next = `${file}.${process.pid}.tmp`
  const lines: OutboxLines = { removed: 0, unreadable: 0, fileRemoved: false }
  let kept = 0
  const output = await open(next, 'w', 0o600)
  try {
    let pending: string[] = []
    let pendingBytes = 0
    for await (const entry of streamOutbox(file)) {
      if (!('record' in entry)) {
        lines.unreadable++
        continue
      }
      if (drop(entry.record)) {
        lines.removed++
        continue
      }
      kept++
      const line = `${JSON.stringify(entry.record)}\n`
      pending.push(line)
      pendingBytes += line.length
      if (pendingBytes >= 256 * 1024) {
        await output.write(pending.join(''))
        pending = []
        pendingBytes = 0
      }
    }
    await output.write(pending.join(''))
    await output.datasync()
  } catch (error) {
    await output.close()
    await rm(next, { force: true })
    throw error
  }
  await output.close()

  // Held open, the old file's bytes can still be reached once the new file takes its name.
  const old = await open(file, 'r+')
  try {
    if (kept === 0) {
      await rm(next, { force: true })
      await rm(file)
      await rm(note, { force: true })
      lines.fileRemoved = true
    } else {
      await rename(next, file)
      if (wasImported) await writeFile(note, `${importedStamp(await stat(file), location)}\n`)
    }
    await syncDirectory(dirname(file))
    await zeroFill(old)
  } finally {
    await old.close()
  }
  return lines
}
