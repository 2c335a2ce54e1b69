// Where `npm run outbox` writes: standard output in large chunks, over npm's banner when npm
// printed one into the file.
import { constants, fstatSync, ftruncateSync, readFileSync, writeSync } from 'node:fs'

/** Collects output into large chunks and waits for the sink: memory stays flat. */
export class ChunkedOutput {
  private parts: string[] = []
  private pending = 0

  constructor(private readonly sink: (chunk: string) => Promise<void>) {}

  async write(text: string): Promise<void> {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= 256 * 1024) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return
    const chunk = this.parts.join('')
    this.parts = []
    this.pending = 0
    await this.sink(chunk)
  }
}

/**
 * `npm run outbox -- --csv > file` (not silent) has npm print its "> gaspre-landing@1.0.0
 * outbox" banner into the file before this process starts. When standard output is a file the
 * shell truncated (not opened for appending) and already holds those few bytes, they are
 * npm's, and the CSV is written over them from the first byte, so the file starts with the BOM.
 */
export function stdoutHoldsNpmBanner(): boolean {
  if (process.env.npm_lifecycle_event === undefined) return false
  try {
    const stats = fstatSync(1)
    if (!stats.isFile() || stats.size === 0 || stats.size > 1024) return false
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'))?.[1]
    return flags !== undefined && (parseInt(flags, 8) & constants.O_APPEND) === 0
  } catch {
    return false // not Linux, or no way to tell: leave the file alone
  }
}

export function stdoutSink(overwriteBanner: boolean): (chunk: string | Buffer) => Promise<void> {
  if (overwriteBanner) {
    ftruncateSync(1, 0)
    let position = 0
    return async (chunk) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      for (let done = 0; done < bytes.length;) {
        done += writeSync(1, bytes, done, bytes.length - done, position + done)
      }
      position += bytes.length
    }
  }
  return (chunk) =>
    new Promise((resolveWrite) => {
      if (process.stdout.write(chunk)) resolveWrite()
      else process.stdout.once('drain', resolveWrite)
    })
}
