import { fallbackMessage } from '../copy/fallback-message'
import contact from '../../content/sitio.yml?field=contact'
import type { DemoRequestValues } from './demo-request'
import { MAX_FALLBACK_URL_LENGTH } from './fallback-url-length'

export type FallbackCopy = {
  readonly intro: string
  readonly subject: string
  readonly labels: Readonly<Record<keyof DemoRequestValues | 'contact_number', string>>
}

export type FallbackRequest = DemoRequestValues & { contact_number: string }

// Comments go last: when a link has to be shortened, only they are cut.
const LINE_ORDER = [
  'user_name',
  'user_group',
  'user_phone',
  'user_email',
  'contact_number',
  'message',
] as const

/** The request written out as a person would type it in a message. */
export function requestText(request: FallbackRequest, copy: FallbackCopy): string {
  const lines = LINE_ORDER.filter((name) => request[name].trim() !== '').map(
    (name) => `${copy.labels[name]}: ${request[name].trim()}`,
  )
  return [copy.intro, '', ...lines].join('\n')
}

/**
 * The longest start of `text` (whole characters, never half an emoji) whose link stays within
 * the limit; a shortened text ends in an ellipsis.
 */
function fitToLink(text: string, link: (text: string) => string): string {
  if (link(text).length <= MAX_FALLBACK_URL_LENGTH) return text
  const characters = Array.from(text)
  let low = 0
  let high = characters.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    const candidate = `${characters.slice(0, middle).join('').trimEnd()}…`
    if (link(candidate).length <= MAX_FALLBACK_URL_LENGTH) low = middle
    else high = middle - 1
  }
  return `${characters.slice(0, low).join('').trimEnd()}…`
}

export function whatsappRequestLink(
  number: string,
  request: FallbackRequest,
  copy: FallbackCopy,
): string {
  const link = (text: string) => `https://wa.me/${number}?text=${encodeURIComponent(text)}`
  return link(fitToLink(requestText(request, copy), link))
}

export function emailRequestLink(
  address: string,
  request: FallbackRequest,
  copy: FallbackCopy,
): string {
  const link = (body: string) =>
    `mailto:${address}?subject=${encodeURIComponent(copy.subject)}&body=${encodeURIComponent(body)}`
  return link(fitToLink(requestText(request, copy), link))
}

export type FallbackChannel = 'whatsapp' | 'email'
export type FallbackLinks = Readonly<Record<FallbackChannel, string>>

/** Both ways to send the request by hand, to the sales number and address given. */
export function requestLinks(
  request: FallbackRequest,
  copy: FallbackCopy,
  sales: { readonly whatsappNumber: string; readonly email: string },
): FallbackLinks {
  return {
    whatsapp: whatsappRequestLink(sales.whatsappNumber, request, copy),
    email: emailRequestLink(sales.email, request, copy),
  }
}

/** The links the error alert offers: to our sales WhatsApp number and address. */
export const salesRequestLinks = (request: FallbackRequest): FallbackLinks =>
  requestLinks(request, fallbackMessage, contact)
