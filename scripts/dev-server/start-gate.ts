// Every request answered, including those that arrive while the server starts: a server listens
// first (so a busy port is told at once), and each request waits for the start to end and is
// then handed to the handler set by then. Without this, a request that came in meanwhile had no
// listener and waited forever.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

type Handler = (request: IncomingMessage, response: ServerResponse) => void

export class StartGate {
  private open!: () => void
  private readonly started = new Promise<void>((resolve) => (this.open = resolve))

  /** Holds `server`'s requests until `serve` gives its handler. */
  hold(server: Server): (handler: Handler) => void {
    let handler: Handler | null = null
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (handler !== null) return handler(request, response)
      void this.started.then(() => handler!(request, response))
    })
    return (serve) => {
      handler = serve
    }
  }

  /** The start is over: every handler is set; the requests that waited are served. */
  ready(): void {
    this.open()
  }
}
