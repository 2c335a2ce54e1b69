// Plain-text answers for errors and the intake: one clear sentence, never a stack trace or
// an internal message.
import { STATUS_CODES } from 'node:http'
import type { FastifyReply } from 'fastify'

export const TEXT = 'text/plain; charset=utf-8'

export function sendText(reply: FastifyReply, status: number, text?: string): FastifyReply {
  return reply
    .code(status)
    .type(TEXT)
    .send(text ?? STATUS_CODES[status] ?? 'Error')
}

/** The status an error carries, if it is a client error; anything else is a 500. */
export function clientErrorStatus(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null
}
