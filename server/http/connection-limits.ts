// Fair shares of the server's connections. One client, however many sockets it opens, holds at
// most MAX_CONNECTIONS_PER_CLIENT of them (nginx's limit_conn is the model). Many clients
// together hold at most MAX_CONNECTIONS; when a new visitor arrives with every slot taken, an
// idle connection of the client holding the most is closed to make room, the oldest first, as
// nginx and HAProxy drop idle keep-alive connections first. Only when every connection is busy
// with a request is the newcomer refused. A busy connection is never cut: the request on it
// finishes.
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { clientKey } from './client-address.js'

interface ConnectionLimitOptions {
  /** Open connections in all. */
  total: number
  perClient: number
  /**
   * Peers whose connections carry many visitors (a trusted reverse proxy): not limited per
   * client, since the proxy limits its own clients; their idle connections still make room.
   */
  isProxy: (address: string) => boolean
}

export interface ConnectionCounts {
  /** Open connections per client key (trusted proxies aside), for tests and the log. */
  readonly open: ReadonlyMap<string, number>
  /** Connections refused so far because their client already held its share, or all were busy. */
  readonly refused: number
  /** Idle connections closed so far to make room for a newcomer. */
  readonly evicted: number
  /** Connections serving a request now. */
  readonly busy: number
}

interface Connection {
  /** The client it counts for; null for a trusted proxy. */
  key: string | null
  /** Serving a request now (not waiting for one). */
  busy: boolean
}

export class ConnectionLimits implements ConnectionCounts {
  readonly open = new Map<string, number>()
  refused = 0
  evicted = 0
  /** Every open connection, oldest first (a Map keeps insertion order). */
  readonly #connections = new Map<Socket, Connection>()
  readonly #options: ConnectionLimitOptions

  constructor(server: Server, options: ConnectionLimitOptions) {
    this.#options = options
    server.on('connection', (socket: Socket) => this.#admit(socket))
  }

  get busy(): number {
    let count = 0
    for (const connection of this.#connections.values()) if (connection.busy) count++
    return count
  }

  /** The request handler says when a connection starts and ends serving a request. */
  setBusy(socket: Socket, busy: boolean): void {
    const connection = this.#connections.get(socket)
    if (connection !== undefined) connection.busy = busy
  }

  #admit(socket: Socket): void {
    const address = socket.remoteAddress ?? ''
    const key = this.#options.isProxy(address) ? null : clientKey(address)
    if (key !== null && (this.open.get(key) ?? 0) >= this.#options.perClient) {
      this.#refuse(socket)
      return
    }
    if (this.#connections.size >= this.#options.total && !this.#makeRoom()) {
      this.#refuse(socket)
      return
    }
    this.#connections.set(socket, { key, busy: false })
    if (key !== null) this.open.set(key, (this.open.get(key) ?? 0) + 1)
    socket.once('close', () => this.#forget(socket))
  }

  /** Closes the oldest idle connection of the client holding the most; false if all are busy. */
  #makeRoom(): boolean {
    let victim: Socket | null = null
    let victimHolds = -1
    for (const [socket, { key, busy }] of this.#connections) {
      if (busy || socket.destroyed) continue
      // A proxy's connection counts as one client's: it is closed only after the crowds'.
      const holds = key === null ? 1 : (this.open.get(key) ?? 0)
      if (holds > victimHolds) {
        victim = socket
        victimHolds = holds
      }
    }
    if (victim === null) return false
    this.evicted++
    this.#forget(victim)
    victim.destroy()
    return true
  }

  #refuse(socket: Socket): void {
    this.refused++
    socket.destroy()
  }

  #forget(socket: Socket): void {
    const connection = this.#connections.get(socket)
    if (connection === undefined) return
    this.#connections.delete(socket)
    if (connection.key === null) return
    const left = (this.open.get(connection.key) ?? 1) - 1
    if (left === 0) this.open.delete(connection.key)
    else this.open.set(connection.key, left)
  }
}
