// One structured (JSON, via pino) log line per request, written when the response is done,
// instead of Fastify's two ("incoming request" + "request completed"). Its path is cut to a few
// hundred characters (log-bounds.ts). A refusal that repeats is not a line per request: the
// sending endpoints' 4xx answers are summarised per route and status (repeated-lines.ts), and a
// request whose refusal the intake has already counted in its own summary writes no line.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import { bounded } from '../text/index.js'
import { RepeatedLines } from './repeated-lines.js'

const counted = new WeakSet<FastifyRequest>()

/** This request's refusal is counted in a summary line already: it writes no line of its own. */
export function countedInSummary(request: FastifyRequest): void {
  counted.add(request)
}

export class OneLinePerRequest extends LogController {
  readonly #refusals = new RepeatedLines()

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (counted.has(request)) return
    const status = reply.statusCode
    const route = request.routeOptions.url
    // Only a post to a route (the sending endpoints) is a refusal worth summarising; a page's
    // 404 is a broken link someone may need to find.
    if (!error && status >= 400 && status < 500 && request.method === 'POST' && route) {
      const admitted = this.#refusals.admit(`${request.method} ${route} ${status}`, {
        what: `answers ${status} to ${request.method} ${route}`,
        level: 'info',
        log: request.server.log,
      })
      if (!admitted) return
    }
    const line = {
      method: request.method,
      url: bounded(request.url),
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(error && { err: error }),
    }
    if (error) reply.log.error(line, 'request')
    else reply.log.info(line, 'request')
  }

  /** Writes the summaries still due (the server stops). */
  close(): void {
    this.#refusals.close()
  }
}
