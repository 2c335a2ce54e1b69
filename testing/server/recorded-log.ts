// What a server test reads of the log: the stream its Fastify (pino) logger writes to, and each
// line it wrote, parsed, as an operator's log collector would read them.
import { Writable } from 'node:stream'

export interface RecordedLog {
  /** Give this to the logger: `{ logger: { level: 'info', stream } }`. */
  stream: Writable
  /** Each line written, parsed, in order. */
  lines: Record<string, unknown>[]
  /** All that was written, as it was written. */
  text: string
  /** How many bytes were written. */
  bytes: number
}

export function recordedLog(): RecordedLog {
  const recorded: RecordedLog = {
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        recorded.bytes += chunk.length
        recorded.text += chunk.toString()
        for (const line of chunk.toString().split('\n')) {
          if (line !== '') recorded.lines.push(JSON.parse(line) as Record<string, unknown>)
        }
        done()
      },
    }),
    lines: [],
    text: '',
    bytes: 0,
  }
  return recorded
}
