// A raw HTTP client for the tests: sends the path exactly as given (no URL normalisation, which
// would hide traversal attempts) and returns the body undecoded (to check content-encoding).
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http'
import { connect } from 'node:net'

export interface HttpResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  text: string
}

export interface RequestOptions {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  timeoutMs?: number
  /** Defaults to a fresh connection per request (Connection: close). */
  agent?: Agent
  /** The loopback address to send from (any of 127.0.0.0/8): another client, to the server. */
  localAddress?: string
}

export function request(base: string, path: string, options: RequestOptions = {}) {
  const url = new URL(base)
  return new Promise<HttpResponse>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 10_000,
        ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString(),
          })
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`timed out: ${options.method ?? 'GET'} ${path}`)))
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Writes bytes straight to the socket (for malformed requests) and returns all it gets back. */
export function rawRequest(base: string, raw: string | Buffer, timeoutMs = 5_000): Promise<string> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect({ host: url.hostname, port: Number(url.port) })
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(Buffer.concat(chunks).toString())
    }, timeoutMs)
    socket.on('connect', () => socket.write(raw))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', (error) => {
      clearTimeout(timer)
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString())
      else reject(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString())
    })
  })
}
