// A disk with faults, for the outbox's I/O seam: real files underneath, but a capacity past
// which writes come up short and then fail with ENOSPC (as write(2) does on a full disk),
// optional short writes while there is room, and injectable EIO.
import { open, stat } from 'node:fs/promises'
import type { OutboxFile, OutboxIo } from '../../server/outbox.js'

const errno = (code: string, syscall: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: injected fault, ${syscall}`), { code, syscall })

export class FakeDisk implements OutboxIo {
  /** `file` is the outbox: the only file on this disk. */
  constructor(private readonly file: string) {}

  /** Bytes the outbox file may reach; Infinity for a disk with room. */
  capacity = Infinity
  /** When set, each write call writes at most this many bytes (a short write). */
  maxBytesPerWrite = Infinity
  /** Fail the next datasync calls with EIO. */
  failingSyncs = 0
  /** Fail the next truncate calls with EIO (an append that cannot be undone). */
  failingTruncates = 0
  /** How many write calls came up short. */
  shortWrites = 0

  async openForAppend(file: string): Promise<OutboxFile> {
    const handle = await open(file, 'a+')
    return {
      write: async (buffer, offset, length) => {
        const { size } = await handle.stat()
        const room = this.capacity - size
        if (room <= 0) throw errno('ENOSPC', 'write')
        const count = Math.min(length, room, this.maxBytesPerWrite)
        if (count < length) this.shortWrites++
        return handle.write(buffer, offset, count)
      },
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      stat: () => handle.stat(),
      truncate: async (length) => {
        if (this.failingTruncates > 0) {
          this.failingTruncates--
          throw errno('EIO', 'ftruncate')
        }
        await handle.truncate(length)
      },
      datasync: async () => {
        if (this.failingSyncs > 0) {
          this.failingSyncs--
          throw errno('EIO', 'fdatasync')
        }
        await handle.datasync()
      },
      close: () => handle.close(),
    }
  }

  async freeBytes(): Promise<number> {
    if (this.capacity === Infinity) return Number.MAX_SAFE_INTEGER
    const size = await stat(this.file).then(
      (stats) => stats.size,
      () => 0,
    )
    return Math.max(0, this.capacity - size)
  }
}
