// Every request answered, including those that arrive while the server starts: a server listens
// first (so a busy port is told at once), and each request that comes before the start is over
// waits for it and is then handed to the server's handler. Without this, a request that came in
// meanwhile had no listener and waited forever.
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

type Handler = (request: IncomingMessage, response: ServerResponse) => void

export class StartGate {
  private isOpen = false
  private open!: () => void
  private readonly started = new Promise<void>((resolve) => (this.open = resolve))

  /** Holds `server`'s requests until the start is over; the function returned sets its handler. */
  hold(server: Server): (handler: Handler) => void {
    let handler: Handler | null = null
    const serve = (request: IncomingMessage, response: ServerResponse) => {
      if (handler === null) throw new Error('the start ended before this server had a handler')
      handler(request, response)
    }
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (this.isOpen) return serve(request, response)
      void this.started.then(() => serve(request, response))
    })
    return (given) => {
      handler = given
    }
  }

  /** The start is over, every handler set: the requests that waited are served. */
  ready(): void {
    this.isOpen = true
    this.open()
  }
}
