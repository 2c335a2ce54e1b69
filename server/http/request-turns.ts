// Bounded work per connection. Node parses every pipelined request in a packet at once and hands
// each to the server straight away, so one socket sending thousands of `GET /` and never reading
// would have thousands of files opened and their bodies buffered at once. Here each connection
// is served one request at a time, in order: the next starts when the answer before it has been
// handed to the socket, which a client that does not read holds back. A few requests may wait
// their turn (no browser pipelines; a client library might); past that depth the connection is
// closed. The last request one connection may carry is answered with Connection: close, and
// what was sent after it is never served.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

type Handler = (request: IncomingMessage, response: ServerResponse) => void

interface TurnLimits {
  /** Requests that may wait behind the one being served on a connection. */
  maxWaiting: number
  /** Requests one connection carries; the last is answered with Connection: close. */
  maxRequests: number
}

export const DEFAULT_TURN_LIMITS: TurnLimits = { maxWaiting: 8, maxRequests: 1_000 }

interface Turns {
  serving: boolean
  waiting: [IncomingMessage, ServerResponse][]
  received: number
}

/**
 * The request handler, served one request at a time per connection. `onBusy` hears when a
 * connection starts and stops serving, so the connection limits know which ones are idle.
 */
export function oneRequestAtATime(
  handler: Handler,
  limits: TurnLimits,
  onBusy: (socket: Socket, busy: boolean) => void,
): Handler {
  const connections = new WeakMap<Socket, Turns>()

  const serve = (turns: Turns, request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket
    turns.serving = true
    onBusy(socket, true)
    let done = false
    const next = (): void => {
      if (done) return
      done = true
      turns.serving = false
      const queued = turns.waiting.shift()
      if (queued !== undefined && !socket.destroyed) serve(turns, ...queued)
      else onBusy(socket, false)
    }
    // 'finish': the answer is in the socket's hands; 'close': the socket went first.
    response.once('finish', next)
    response.once('close', next)
    handler(request, response)
  }

  return (request, response) => {
    const socket = request.socket
    // Requests parsed from the same packet after the connection was closed below.
    if (socket.destroyed) return
    let turns = connections.get(socket)
    if (turns === undefined) {
      turns = { serving: false, waiting: [], received: 0 }
      connections.set(socket, turns)
    }
    turns.received++
    // Sent after the request whose answer closes the connection: never served.
    if (turns.received > limits.maxRequests) return
    if (turns.serving && turns.waiting.length >= limits.maxWaiting) {
      turns.waiting.length = 0
      socket.destroy()
      return
    }
    if (turns.received === limits.maxRequests) response.shouldKeepAlive = false
    if (turns.serving) turns.waiting.push([request, response])
    else serve(turns, request, response)
  }
}
