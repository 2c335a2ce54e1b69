import { describe, expect, it } from 'vitest'
import { NETWORK_ERROR, SendTimeoutError, sendErrorText } from './send-error-text'

class EmailJSResponseStatus {
  constructor(
    readonly status = 0,
    readonly text = 'Network Error',
  ) {}
}

describe('sendErrorText', () => {
  it.each([
    [new EmailJSResponseStatus(403, 'Forbidden'), 'Forbidden'],
    [new EmailJSResponseStatus(412, 'The template ID is invalid'), 'The template ID is invalid'],
    [new EmailJSResponseStatus(429, 'Too Many Requests'), 'Too Many Requests'],
    [
      new EmailJSResponseStatus(451, 'Unavailable For Headless Browser'),
      'Unavailable For Headless Browser',
    ],
    [new EmailJSResponseStatus(500, '  Internal failure  '), 'Internal failure'],
    [new EmailJSResponseStatus(), NETWORK_ERROR],
  ])('shows the body text of a service answer (%o)', (error, expected) => {
    expect(sendErrorText(error)).toBe(expected)
  })

  it('names the status when the body is empty', () => {
    expect(sendErrorText(new EmailJSResponseStatus(502, ''))).toBe('Error 502')
    expect(sendErrorText({ status: 0, text: '' })).toBe(NETWORK_ERROR)
  })

  it('reports a failed fetch as a network error', () => {
    expect(sendErrorText(new TypeError('Failed to fetch'))).toBe(NETWORK_ERROR)
  })

  it('passes on the configuration messages the SDK rejects with as strings', () => {
    expect(sendErrorText('The public key is required')).toBe('The public key is required')
  })

  it('explains a timeout in Spanish', () => {
    expect(sendErrorText(new SendTimeoutError(15_000))).toMatch(/no respondió en 15 segundos/)
  })

  it.each([undefined, null, {}, '', '   ', new Error(''), 42])(
    'never shows undefined or [object Object] (%o)',
    (error) => {
      const text = sendErrorText(error)
      expect(text).toBe(NETWORK_ERROR)
    },
  )
})
