// Fair shares of the server's connections. The total (MAX_CONNECTIONS) protects the process;
// this protects the visitors from each other: one client, however many sockets it opens, holds
// at most MAX_CONNECTIONS_PER_CLIENT of them (nginx's limit_conn is the model), and every
// socket that times out or errs is destroyed, so no half-closed socket keeps a slot.
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { clientKey } from './client-address.js'

interface ConnectionLimitOptions {
  perClient: number
  /**
   * Peers whose connections carry many visitors (a trusted reverse proxy): not limited here,
   * since the proxy limits its own clients.
   */
  isProxy: (address: string) => boolean
}

export interface ConnectionCounts {
  /** Open connections per client key, for tests and the log. */
  readonly open: ReadonlyMap<string, number>
  /** Connections refused so far because their client already held its share. */
  readonly refused: number
}

export function limitConnectionsPerClient(
  server: Server,
  { perClient, isProxy }: ConnectionLimitOptions,
): ConnectionCounts {
  const open = new Map<string, number>()
  const counts = { open, refused: 0 }
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? ''
    if (isProxy(address)) return
    const key = clientKey(address)
    const held = open.get(key) ?? 0
    if (held >= perClient) {
      counts.refused++
      socket.destroy()
      return
    }
    open.set(key, held + 1)
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1
      if (left === 0) open.delete(key)
      else open.set(key, left)
    })
  })
  return counts
}
