// The connection one SMTP session runs on, opened here and handed to nodemailer, so that the
// session is bounded where nodemailer offers no option: a stop or a deadline (an AbortSignal)
// destroys it at once, and a server that answers without end (250- continuation lines, which
// nodemailer keeps whole until their last line) is cut past a number of bytes. Everything else
// (TLS, STARTTLS, EHLO, AUTH, the timeouts) stays nodemailer's: it upgrades this stream to TLS as
// it would its own socket (Node's tls.connect takes any Duplex stream as `socket`).
import { connect, type Socket } from 'node:net'
import { Duplex } from 'node:stream'
import { abortReason } from '../../queue/index.js'

/** The bytes one TCP connection carries in from the server, counted, and passed on. */
export class MeteredSocket extends Duplex {
  private received = 0
  /** Why the session was cut here, if it was: nodemailer may report it as a closed socket. */
  cutBecause: string | null = null

  constructor(
    private readonly inner: Socket,
    private readonly maxBytes: number,
  ) {
    super()
    inner.on('data', (chunk: Buffer) => {
      this.received += chunk.length
      if (this.received > this.maxBytes) {
        this.cut(`the mail server sent more than ${this.maxBytes} bytes of answers`)
      } else if (!this.push(chunk)) inner.pause()
    })
    inner.on('end', () => this.push(null))
    inner.on('error', (error) => this.destroy(error))
    inner.on('close', () => this.destroy())
    inner.on('timeout', () => this.emit('timeout'))
    // Whatever nodemailer has stopped listening for by then (a late error) is not a crash.
    this.on('error', () => undefined)
  }

  /** Ends the session at once, for `reason`. */
  cut(reason: string): void {
    this.cutBecause ??= reason
    this.destroy(new Error(reason))
  }

  override _read(): void {
    this.inner.resume()
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.inner.write(chunk, encoding, done)
  }

  override _final(done: (error?: Error | null) => void): void {
    this.inner.end(done)
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.inner.destroy()
    done(error)
  }

  // What nodemailer asks of a socket besides a stream's methods.
  setTimeout(ms: number): this {
    this.inner.setTimeout(ms)
    return this
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.inner.setKeepAlive(enable, delay)
    return this
  }
  get remoteAddress() {
    return this.inner.remoteAddress
  }
  get remotePort() {
    return this.inner.remotePort
  }
  get localAddress() {
    return this.inner.localAddress
  }
  get localPort() {
    return this.inner.localPort
  }
}

interface Bounds {
  /** How long the TCP connection may take to open. */
  connectMs: number
  /** The most bytes the server may send in the session. */
  maxAnswerBytes: number
  /** A stop or a deadline: destroys the connection at once. */
  signal: AbortSignal
}

/** Opens a TCP connection to host:port within the bounds; the stream nodemailer is to use. */
export function openMeteredSocket(
  host: string,
  port: number,
  bounds: Bounds,
): Promise<MeteredSocket> {
  return new Promise((resolve, reject) => {
    const inner = connect({ host, port })
    const metered = new MeteredSocket(inner, bounds.maxAnswerBytes)
    const stop = () => metered.cut(abortReason(bounds.signal))
    bounds.signal.addEventListener('abort', stop, { once: true })
    metered.once('close', () => bounds.signal.removeEventListener('abort', stop))
    if (bounds.signal.aborted) stop()
    inner.setTimeout(bounds.connectMs)
    const opening = () =>
      metered.cut(`could not connect to ${host}:${port} within ${bounds.connectMs / 1000} s`)
    inner.once('timeout', opening)
    metered.once('error', reject)
    inner.once('connect', () => {
      inner.off('timeout', opening)
      inner.setTimeout(0)
      metered.off('error', reject)
      resolve(metered)
    })
  })
}
