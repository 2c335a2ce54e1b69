import { connect, type AddressInfo, type Server } from 'node:net'

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

/** Whether something accepts connections on `host`:`port`. */
const answers = (port: number, host: string): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ port, host })
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })

/**
 * Tries `port` before the start takes DATA_DIR and loads Vite, so that a busy one is told at
 * once, in one line (`busy`), and not as another server's hold on DATA_DIR. Port 0 is never busy.
 * It connects rather than listens: a probe that listened would take, and drop, a connection a
 * browser opened at that moment. A port taken some other way is told when the server listens.
 */
export async function exitIfBusy(port: number, host: string, busy: string): Promise<void> {
  if (port === 0 || !(await answers(port, host))) return
  console.error(busy)
  process.exit(1)
}
