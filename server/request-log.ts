// One structured (JSON, via pino) log line per request, written when the response is done,
// instead of Fastify's two ("incoming request" + "request completed").
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'

const MAX_LOGGED_URL = 512

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: request.url.slice(0, MAX_LOGGED_URL),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(error && { err: error }),
    }
    if (error) reply.log.error(line, 'request')
    else reply.log.info(line, 'request')
  }
}
