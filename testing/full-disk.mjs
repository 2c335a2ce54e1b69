// The one fault the browser suites need from the server itself: a disk with no room left, for
// the demo requests of one made-up e-mail domain only, so that every other test in the same run
// still stores its requests. It goes in through the outbox's I/O seam (AppOptions.outboxIo), so
// what a visitor then sees is the production server's own answer to a full disk.

/** A demo request whose e-mail ends in this domain finds the disk full. */
export const FULL_DISK_DOMAIN = '@disco-lleno.prueba'

const marker = Buffer.from(FULL_DISK_DOMAIN)

/**
 * @param {import('../server/outbox.ts').OutboxIo} io the real file operations
 * @returns {import('../server/outbox.ts').OutboxIo}
 */
export function fullDiskFor(io) {
  return {
    freeBytes: (dir) => io.freeBytes(dir),
    async openForAppend(file) {
      const handle = await io.openForAppend(file)
      return {
        read: (...args) => handle.read(...args),
        stat: () => handle.stat(),
        truncate: (length) => handle.truncate(length),
        datasync: () => handle.datasync(),
        close: () => handle.close(),
        write(buffer, offset, length) {
          if (Buffer.from(buffer.subarray(offset, offset + length)).includes(marker)) {
            const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
              syscall: 'write',
            })
            return Promise.reject(error)
          }
          return handle.write(buffer, offset, length)
        },
      }
    },
  }
}
