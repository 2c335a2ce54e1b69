// The local stand-in's durable store: one JSON object per line in <dataDir>/outbox.jsonl.
// Appends go through one serialized writer and are fdatasync'ed before the caller is told
// they are stored, so parallel requests never interleave and an acknowledged request survives
// a crash. An append is all or nothing: a short write is continued until every byte is down,
// and a write that fails (disk full, I/O error) is taken back, so the caller is never told
// "stored" for a partial line. Taking back never removes a byte this writer did not write: if
// the file grew by anyone else's hand meanwhile, the partial line is ended instead. (One server
// owns a DATA_DIR, see data-dir.ts; this is the second line of defence.) A crash mid-write can
// still leave a torn last line: the writer terminates it before its next append and the reader
// skips it, so one bad line never hides the others.
import { randomUUID } from 'node:crypto'
import { mkdir, open, stat, statfs, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { DEFAULT_LIMITS } from './limits.js'

export const OUTBOX_FILE = 'outbox.jsonl'
/**
 * Below this much free disk space the readiness check fails: the next append may not fit.
 * @internal its tests use it too
 */
export const MIN_FREE_BYTES = 1024 ** 2

export interface OutboxRecord {
  id: string
  receivedAt: string
  serviceId: string
  templateId: string
  params: Record<string, string>
}

export const outboxPath = (dataDir: string): string => join(dataDir, OUTBOX_FILE)

export function newRecord(
  serviceId: string,
  templateId: string,
  params: Record<string, string>,
): OutboxRecord {
  return { id: randomUUID(), receivedAt: new Date().toISOString(), serviceId, templateId, params }
}

/** The part of a file handle the writer uses: the seam through which tests inject faults. */
export interface OutboxFile {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>
  stat(): Promise<{ size: number; ino: number; dev: number }>
  truncate(length: number): Promise<void>
  datasync(): Promise<void>
  close(): Promise<void>
}

export interface OutboxIo {
  /** Opens the outbox for appending (O_APPEND), creating it if missing. */
  openForAppend(file: string): Promise<OutboxFile>
  /** Bytes an unprivileged process may still write on the file system holding `dir`. */
  freeBytes(dir: string): Promise<number>
}

/** @internal the browser suites' test server wraps it (testing/server-with-full-disk.mjs) */
export const nodeOutboxIo: OutboxIo = {
  openForAppend: (file) => open(file, 'a+'),
  async freeBytes(dir) {
    const stats = await statfs(dir)
    return stats.bavail * stats.bsize
  },
}

/** Why an append was refused; the stand-in turns each into its own 5xx. */
type OutboxFailure = 'full' | 'no-space' | 'write-failed'

export class OutboxError extends Error {
  constructor(
    readonly failure: OutboxFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'OutboxError'
  }
}

const errnoCode = (error: unknown): string | undefined =>
  (error as NodeJS.ErrnoException | null)?.code

function asOutboxError(error: unknown): OutboxError {
  if (error instanceof PartialWrite) return asOutboxError(error.cause)
  if (error instanceof OutboxError) return error
  const code = errnoCode(error)
  const detail = error instanceof Error ? error.message : String(error)
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new OutboxError('no-space', `no space left for the outbox (${detail})`, {
      cause: error,
    })
  }
  return new OutboxError('write-failed', `the outbox could not be written (${detail})`, {
    cause: error,
  })
}

/** A write that stopped part way: how many of its bytes are in the file. */
class PartialWrite extends Error {
  constructor(
    readonly written: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause))
  }
}

/** write(2) may write fewer bytes than asked (a full disk, a signal): go on until all are. */
async function writeFully(handle: OutboxFile, bytes: Uint8Array): Promise<void> {
  let offset = 0
  try {
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
      if (bytesWritten <= 0) {
        throw Object.assign(new Error(`write made no progress at byte ${offset}`), { code: 'EIO' })
      }
      offset += bytesWritten
    }
  } catch (error) {
    throw new PartialWrite(offset, error)
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes a newly created file's directory entry durable too.
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

export type Readiness = { ready: true } | { ready: false; reason: string }

interface OutboxWriterOptions {
  /** Appends that would grow the file past this many bytes are refused ('full'). */
  maxBytes?: number
  /** Readiness fails when the file system has less free space than this. */
  minFreeBytes?: number
  /**
   * The longest line an accepted request can make: readiness fails as soon as one of this size
   * would not fit under maxBytes or on the disk.
   */
  largestRecordBytes?: number
  /** Told when the writer turns ready or not ready, once per change, after an append or a check. */
  onReadinessChange?: (state: Readiness) => void
  io?: OutboxIo
}

export class OutboxWriter {
  readonly maxBytes: number
  private readonly minFreeBytes: number
  private readonly largestRecordBytes: number
  private readonly onReadinessChange: (state: Readiness) => void
  private wasReady = true
  private readonly io: OutboxIo
  private handle: OutboxFile | null = null
  /** The file's size as this writer left it; valid while `handle` is open. */
  private size = 0
  /** Which file `handle` is, to notice when the outbox was moved away to start a new one. */
  private identity = { ino: -1, dev: -1 }
  /** The last append's failure, until an append or a readiness probe succeeds. */
  private failure: OutboxError | null = null
  private tail: Promise<unknown> = Promise.resolve()

  constructor(
    readonly file: string,
    options: OutboxWriterOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_LIMITS.outboxMaxBytes
    this.largestRecordBytes = options.largestRecordBytes ?? 0
    this.minFreeBytes = Math.max(options.minFreeBytes ?? MIN_FREE_BYTES, this.largestRecordBytes)
    this.onReadinessChange = options.onReadinessChange ?? (() => undefined)
    this.io = options.io ?? nodeOutboxIo
  }

  /**
   * Resolves once the whole record is on disk; rejects with an OutboxError, leaving the file
   * as it was, when it is not. Appends run one at a time, in call order.
   */
  append(record: OutboxRecord): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8')
    return this.serialized(async () => {
      try {
        await this.write(line)
      } finally {
        this.report(this.failure === null ? await this.capacity() : this.notReady(this.failure))
      }
    })
  }

  /**
   * Whether the next append can be expected to succeed: the file opens, a request of the
   * largest size fits under its size cap and on the disk, and — after a failed append — a probe
   * write succeeds again.
   */
  readiness(): Promise<Readiness> {
    return this.serialized(async () => this.report(await this.check()))
  }

  private notReady(error: OutboxError): Readiness {
    return { ready: false, reason: error.message }
  }

  private report(state: Readiness): Readiness {
    if (state.ready !== this.wasReady) {
      this.wasReady = state.ready
      this.onReadinessChange(state)
    }
    return state
  }

  async close(): Promise<void> {
    await this.tail
    await this.dropHandle()
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task)
    this.tail = run.catch(() => undefined)
    return run
  }

  private async write(line: Buffer): Promise<void> {
    const handle = await this.openHandle()
    const before = this.size
    if (before + line.length > this.maxBytes) {
      throw new OutboxError(
        'full',
        `the outbox holds ${before} bytes and this request needs ${line.length} more, past ` +
          `its limit of ${this.maxBytes} bytes (OUTBOX_MAX_BYTES)`,
      )
    }
    await this.appendOrUndo(handle, before, line)
    this.failure = null
  }

  /** Appends `bytes` durably, or takes back what it wrote of them and throws. */
  private async appendOrUndo(handle: OutboxFile, before: number, bytes: Uint8Array) {
    try {
      await writeFully(handle, bytes)
      await handle.datasync()
      this.size = before + bytes.length
    } catch (error) {
      const failure = asOutboxError(error)
      this.failure = failure
      const written = error instanceof PartialWrite ? error.written : bytes.length
      await this.takeBack(handle, before, written)
      // Reopen (and re-read the real size) before the next append.
      await this.dropHandle()
      throw failure
    }
  }

  /**
   * Removes the `written` bytes this writer just put after `before`, but only while they are
   * the file's last bytes: anything past them was written by someone else, and stays. Then
   * the partial line is ended instead, so it cannot swallow the next one.
   */
  private async takeBack(handle: OutboxFile, before: number, written: number): Promise<void> {
    try {
      const { size } = await handle.stat()
      if (size === before + written) {
        await handle.truncate(before)
      } else if (written > 0) {
        await writeFully(handle, Buffer.from('\n'))
      }
      await handle.datasync()
    } catch {
      // The partial line stays; the reopen below terminates it and the reader skips it.
    }
  }

  private async check(): Promise<Readiness> {
    let handle: OutboxFile
    try {
      handle = await this.openHandle()
      if (this.failure !== null) {
        // A blank line, written and taken back: the reader skips blank lines anyway.
        const before = this.size
        await this.appendOrUndo(handle, before, Buffer.from('\n'))
        await this.takeBack(handle, before, 1)
        this.size = before
        this.failure = null
      }
    } catch (error) {
      return { ready: false, reason: asOutboxError(error).message }
    }
    return this.capacity()
  }

  /** Whether a request of the largest accepted size fits under the cap and on the disk. */
  private async capacity(): Promise<Readiness> {
    const needed = Math.max(this.largestRecordBytes, 1)
    if (this.size + needed > this.maxBytes) {
      return {
        ready: false,
        reason:
          `the outbox is full: it holds ${this.size} of ${this.maxBytes} bytes ` +
          `(OUTBOX_MAX_BYTES) and a request can take ${needed}`,
      }
    }
    try {
      const free = await this.io.freeBytes(dirname(this.file))
      if (free < this.minFreeBytes) {
        return {
          ready: false,
          reason: `only ${free} bytes of disk space are left for the outbox (${this.minFreeBytes} needed)`,
        }
      }
    } catch (error) {
      return { ready: false, reason: asOutboxError(error).message }
    }
    return { ready: true }
  }

  /** True while the path still names the file the handle has open. */
  private async stillTheFile(): Promise<boolean> {
    const onDisk = await stat(this.file).catch(() => null)
    return onDisk !== null && onDisk.ino === this.identity.ino && onDisk.dev === this.identity.dev
  }

  private async openHandle(): Promise<OutboxFile> {
    if (this.handle !== null) {
      if (await this.stillTheFile()) return this.handle
      // Moved or deleted (an operator exported it and made room): continue in a new file.
      await this.dropHandle()
    }
    try {
      const dir = dirname(this.file)
      await mkdir(dir, { recursive: true })
      const handle = await this.io.openForAppend(this.file)
      try {
        const { size, ino, dev } = await handle.stat()
        this.size = size
        this.identity = { ino, dev }
        if (size === 0) {
          await syncDirectory(dir)
        } else {
          const last = new Uint8Array(1)
          await handle.read(last, 0, 1, size - 1)
          if (last[0] !== 0x0a) {
            // End a torn line left by a crash (or by a failed append that could not be undone).
            await writeFully(handle, Buffer.from('\n'))
            await handle.datasync()
            this.size = size + 1
          }
        }
      } catch (error) {
        await handle.close().catch(() => undefined)
        throw error
      }
      this.handle = handle
      return handle
    } catch (error) {
      const failure = asOutboxError(error)
      this.failure = failure
      throw failure
    }
  }

  private async dropHandle(): Promise<void> {
    const handle = this.handle
    this.handle = null
    await handle?.close().catch(() => undefined)
  }
}

function isRecord(value: unknown): value is OutboxRecord {
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
function parseOutboxLine(line: string): OutboxRecord | null {
  try {
    const value: unknown = JSON.parse(line)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

/** @internal its tests use it too */
export type OutboxEntry = { record: OutboxRecord } | { skipped: true }

/** A line as an entry; null for a blank line (the writer's own probe leaves none, but be lenient). */
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
  records: OutboxRecord[]
  /** Lines that could not be read (a torn write); they are skipped, never fatal. */
  skipped: number
}

/**
 * The whole outbox in memory: for tests and small files; the CLI streams instead.
 * @internal its tests use it too
 */
export async function readOutbox(file: string): Promise<OutboxContents> {
  const records: OutboxRecord[] = []
  let skipped = 0
  for await (const entry of streamOutbox(file)) {
    if ('record' in entry) records.push(entry.record)
    else skipped++
  }
  return { records, skipped }
}
