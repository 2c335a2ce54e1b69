// A demo request as the page sends it, for the server tests.
import { SEND_PATH } from '../../src/contract/demo-request.js'
import { DOOR_PATH } from '../../src/contract/demo-request-fields.js'
import { request, type HttpResponse, type RequestOptions } from './http.js'
import type { Client } from './inject.js'

/** The four required fields, filled as a visitor would. */
export const DEMO_PARAMS: Readonly<Record<string, string>> = {
  user_name: 'Ana López',
  user_email: 'ana@gasolinera.mx',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Norte',
}

/** The fields @emailjs/browser adds to every call. */
export const CALL_FIELDS = { lib_version: '4.4.1', user_id: 'k', service_id: 's', template_id: 't' }

/** The JSON body of a send, as the SDK writes it. */
export const demoRequestJson = (params: Readonly<Record<string, unknown>> = DEMO_PARAMS): string =>
  JSON.stringify({ ...CALL_FIELDS, template_params: params })

/**
 * Posts a send (JSON, as the SDK does) to `to`: a server's base URL, over a socket, or a Client
 * such as AppOnStore's `request`, in-process.
 */
export const sendDemoRequest = (
  to: string | Client,
  params: Readonly<Record<string, unknown>> = DEMO_PARAMS,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<HttpResponse> => {
  const send: RequestOptions = {
    ...options,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: demoRequestJson(params),
  }
  return typeof to === 'string' ? request(to, SEND_PATH, send) : to(SEND_PATH, send)
}

/** A form encoded as the platform encodes it (multipart, with its boundary), to send raw. */
export async function multipartBody(form: FormData): Promise<{ type: string; body: Buffer }> {
  const encoded = new Request('http://localhost/', { method: 'POST', body: form })
  return {
    type: encoded.headers.get('content-type') ?? '',
    body: Buffer.from(await encoded.arrayBuffer()),
  }
}

/**
 * Posts a demo request to our own door as an own-server page does: the fields as JSON, with an
 * Idempotency-Key (quoted, a Structured Field string) unless `key` is null.
 */
export const sendToDoor = (
  to: string | Client,
  params: Readonly<Record<string, unknown>>,
  key: string | null,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<HttpResponse> => {
  const send: RequestOptions = {
    ...options,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key !== null && { 'idempotency-key': `"${key}"` }),
      ...options.headers,
    },
    body: JSON.stringify(params),
  }
  return typeof to === 'string' ? request(to, DOOR_PATH, send) : to(DOOR_PATH, send)
}
