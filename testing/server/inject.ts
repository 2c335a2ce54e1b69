// The app answered in-process (Fastify's inject): no socket, no port, the same routes, hooks and
// headers. The answer has the shape of testing/server/http.ts's, so checks take either.
import type { FastifyInstance } from 'fastify'
import type { HttpResponse, RequestOptions } from './http.js'

/** What an in-process request can say: there is no connection to choose or time out. */
export type InjectOptions = Pick<RequestOptions, 'method' | 'headers' | 'body'>

/** A request to one server, over a socket or in-process, answered in the same shape. */
export type Client = (path: string, options?: InjectOptions) => Promise<HttpResponse>

/** The Host an injected request carries: the server's own origin, with a port as on a socket. */
export const INJECTED_HOST = '127.0.0.1:3000'

export async function injectRequest(
  app: FastifyInstance,
  path: string,
  options: InjectOptions = {},
): Promise<HttpResponse> {
  const { method = 'GET', headers = {}, body } = options
  const res = await app.inject({
    method: method as 'GET',
    url: path,
    authority: INJECTED_HOST,
    // As node:http does for a body given whole: Content-Length, even when it is empty.
    headers:
      body === undefined || Object.keys(headers).some((name) => /^content-length$/i.test(name))
        ? headers
        : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    ...(body !== undefined && { payload: body }),
  })
  const responseHeaders: HttpResponse['headers'] = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined)
      responseHeaders[name] = typeof value === 'number' ? String(value) : value
  }
  return {
    status: res.statusCode,
    headers: responseHeaders,
    body: res.rawPayload,
    text: res.payload,
  }
}
