import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Listens, or says in one line that the port is taken (`busy`) and exits 1. Resolves the port. */
export function listenOrExit(
  server: Server,
  port: number,
  host: string,
  busy: string,
): Promise<number> {
  return new Promise((resolveListening) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error
      console.error(busy)
      process.exit(1)
    })
    server.listen(port, host, () => resolveListening((server.address() as AddressInfo).port))
  })
}
