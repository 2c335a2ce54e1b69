// The local stand-in's durable store: one JSON object per line in <dataDir>/outbox.jsonl.
// Appends go through one serialized writer and are fdatasync'ed before the caller is told
// they are stored, so parallel requests never interleave and an acknowledged request survives
// a crash. A crash mid-write can leave a torn last line: the writer terminates it before its
// next append and the reader skips it, so one bad line never hides the others.
import { randomUUID } from 'node:crypto'
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises'
import { dirname, join } from 'node:path'

export const OUTBOX_FILE = 'outbox.jsonl'

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

async function syncDirectory(dir: string): Promise<void> {
  // Makes a newly created file's directory entry durable too.
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

export class OutboxWriter {
  private handle: FileHandle | null = null
  private tail: Promise<void> = Promise.resolve()

  constructor(readonly file: string) {}

  /** Resolves once the record is on disk; appends run one at a time, in call order. */
  append(record: OutboxRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`
    const run = this.tail.then(() => this.write(line))
    this.tail = run.catch(() => undefined)
    return run
  }

  async close(): Promise<void> {
    await this.tail
    const handle = this.handle
    this.handle = null
    await handle?.close()
  }

  private async write(line: string): Promise<void> {
    try {
      const handle = this.handle ?? (await this.openForAppend())
      await handle.write(line)
      await handle.datasync()
    } catch (error) {
      // A failed write may have left a partial line: reopen (and re-terminate) next time.
      const handle = this.handle
      this.handle = null
      await handle?.close().catch(() => undefined)
      throw error
    }
  }

  private async openForAppend(): Promise<FileHandle> {
    const dir = dirname(this.file)
    await mkdir(dir, { recursive: true })
    const handle = await open(this.file, 'a+')
    const { size } = await handle.stat()
    if (size === 0) {
      await syncDirectory(dir)
    } else {
      const last = Buffer.alloc(1)
      await handle.read(last, 0, 1, size - 1)
      if (last[0] !== 0x0a) await handle.write('\n') // end a torn line left by a crash
    }
    this.handle = handle
    return handle
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

export interface OutboxContents {
  /** Records in file order (oldest first). */
  records: OutboxRecord[]
  /** Lines that could not be read (a torn write); they are skipped, never fatal. */
  skipped: number
}

export async function readOutbox(file: string): Promise<OutboxContents> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0 }
    throw error
  }
  const records: OutboxRecord[] = []
  let skipped = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const value: unknown = JSON.parse(line)
      if (isRecord(value)) records.push(value)
      else skipped++
    } catch {
      skipped++
    }
  }
  return { records, skipped }
}
