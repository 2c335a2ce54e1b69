/**
 * Turns anything the e-mail SDK (or our timeout) can reject with into the text shown after
 * 'Hubo un problema al enviar el mensaje: '. @emailjs/browser 4.x rejects with an
 * EmailJSResponseStatus for HTTP answers and its own refusals, a plain TypeError when fetch
 * gets no answer, and a plain string for configuration mistakes.
 */

/** @internal its tests use it too */
export const NETWORK_ERROR = 'Network Error'

export class SendTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(
      `el servicio de envío no respondió en ${Math.round(timeoutMs / 1000)} segundos. Revisa tu conexión e inténtalo de nuevo.`,
    )
    this.name = 'SendTimeoutError'
  }
}

type ResponseStatusLike = { status: number; text: unknown }

function isResponseStatus(value: unknown): value is ResponseStatusLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    typeof value.status === 'number' &&
    'text' in value
  )
}

export function sendErrorText(error: unknown): string {
  if (error instanceof SendTimeoutError) return error.message
  if (isResponseStatus(error)) {
    const text = typeof error.text === 'string' ? error.text.trim() : ''
    if (text !== '') return text
    return error.status === 0 ? NETWORK_ERROR : `Error ${error.status}`
  }
  // fetch rejects with a TypeError ('Failed to fetch', 'NetworkError when…', 'Load failed')
  // whenever no answer arrived: offline, DNS, CORS, a refused or dropped connection.
  if (error instanceof TypeError) return NETWORK_ERROR
  if (typeof error === 'string' && error.trim() !== '') return error.trim()
  if (error instanceof Error && error.message.trim() !== '') return error.message.trim()
  return NETWORK_ERROR
}
