import { act, renderHook, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DemoRequestValues } from '../../rules/demo-request'
import { mailConfig } from '../../config/build-values'
import { local } from '../storage'
import { HONEYPOT_FIELD } from '../../contract/demo-request'
import { useSendRequest } from './use-send-request'

const send = vi.fn<(params: Record<string, string>) => Promise<void>>()
/** What the sender was given besides the request: the build's configuration and a storage. */
const sentWith = vi.fn()
vi.mock('../send-to-own-server', () => ({
  sendDemoRequest: (params: Record<string, string>, ...rest: unknown[]) => {
    sentWith(...rest)
    return send(params)
  },
}))

const request: DemoRequestValues = {
  user_name: ' Ana López ',
  user_email: 'ana@grupo.mx',
  user_phone: '55 1234 5678',
  user_group: 'Grupo Altamar',
  message: '',
}

let form: HTMLFormElement
const trap = () => form.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement
const heldButton = () => form.querySelector('button')!
const events = () => (window.dataLayer ?? []).map((entry) => ({ ...entry }))

beforeEach(() => {
  send.mockReset()
  sentWith.mockReset()
  delete window.dataLayer
  form = document.createElement('form')
  // As the page's first script leaves a submit it held before hydration.
  form.innerHTML = `<input name="${HONEYPOT_FIELD}"><button type="submit" aria-disabled="true"></button>`
  document.body.append(form)
})

afterEach(() => document.body.replaceChildren())

function renderSend(accept = true) {
  const checkRequest = vi.fn(() => accept)
  const onSent = vi.fn()
  const hook = renderHook(() => useSendRequest(checkRequest, onSent))
  const sendRequest = () => act(() => hook.result.current.send(form, request, '4321'))
  return { ...hook, checkRequest, onSent, sendRequest }
}

describe('useSendRequest', () => {
  it("shows what the answer leads to under the success, once it has loaded (the rep's free times)", async () => {
    let loaded: (next: string) => void = () => {}
    // Our own door's sender resolves with what follows the success (the e-mail service's, with
    // nothing, as the other tests have it).
    const following = { next: new Promise<string>((resolve) => (loaded = resolve)) }
    send.mockResolvedValue(following as never)
    const { result, sendRequest } = renderSend()
    await sendRequest()
    // At once: a success that will grow, so the alert opens ready for it.
    expect(result.current.result).toEqual({ kind: 'success', growing: true })
    await act(async () => loaded('las horas libres'))
    expect(result.current.result).toEqual({
      kind: 'success',
      growing: true,
      next: 'las horas libres',
    })
  })

  it('sends the trimmed request with its contact number and campaign, reports it and succeeds', async () => {
    send.mockResolvedValue()
    const { result, onSent, sendRequest } = renderSend()
    await sendRequest()
    expect(send).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        user_name: 'Ana López',
        user_group: 'Grupo Altamar',
        contact_number: '4321',
        traffic_source: 'directo',
      }),
    )
    expect(sentWith).toHaveBeenCalledExactlyOnceWith(mailConfig, local)
    expect(events()).toEqual([{ event: 'demo_request_submitted', traffic_source: 'directo' }])
    expect(onSent).toHaveBeenCalledOnce()
    expect(result.current.result).toEqual({ kind: 'success' })
    expect(result.current.sending).toBe(false)
  })

  it('a request that fails the check is not sent, and the held button is released', async () => {
    const { result, checkRequest, onSent, sendRequest } = renderSend(false)
    await sendRequest()
    expect(checkRequest).toHaveBeenCalledWith(form, request)
    expect(send).not.toHaveBeenCalled()
    expect(heldButton()).not.toHaveAttribute('aria-disabled')
    expect(onSent).not.toHaveBeenCalled()
    expect(result.current.result).toBeNull()
  })

  it('a filled honeypot reports success and sends nothing', async () => {
    trap().value = 'https://spam.example'
    const { result, onSent, sendRequest } = renderSend()
    await sendRequest()
    expect(send).not.toHaveBeenCalled()
    expect(events()).toEqual([])
    expect(onSent).toHaveBeenCalledOnce()
    expect(result.current.result).toEqual({ kind: 'success' })
    expect(trap()).toHaveValue('')
    expect(heldButton()).not.toHaveAttribute('aria-disabled')
  })

  it('a second submit while one is sending sends nothing, and does not even check', async () => {
    let finish: () => void = () => undefined
    send.mockReturnValue(new Promise<void>((resolve) => (finish = resolve)))
    const { result, checkRequest, onSent } = renderSend()
    act(() => void result.current.send(form, request, '4321'))
    expect(result.current.sending).toBe(true)
    act(() => void result.current.send(form, request, '4321'))
    await waitFor(() => expect(send).toHaveBeenCalledOnce())
    expect(checkRequest).toHaveBeenCalledOnce()
    await act(async () => finish())
    expect(result.current.sending).toBe(false)
    expect(onSent).toHaveBeenCalledOnce()
  })

  it('a failed send keeps what was typed, names the failure and offers the links', async () => {
    send.mockRejectedValue({ status: 429, text: 'Too Many Requests' })
    const { result, onSent, sendRequest } = renderSend()
    await sendRequest()
    await waitFor(() => expect(result.current.result).not.toBeNull())
    expect(onSent).not.toHaveBeenCalled()
    expect(events()).toEqual([{ event: 'demo_request_failed', error: 'Too Many Requests' }])
    const failed = result.current.result
    expect(failed).toMatchObject({ kind: 'error', text: 'Too Many Requests' })
    const links = failed?.kind === 'error' ? failed.links : null
    expect(links?.whatsapp).toMatch(/^https:\/\/wa\.me\/\d+\?text=.*Ana%20L%C3%B3pez/)
    expect(links?.email).toMatch(/^mailto:.*4321/)
    expect(result.current.sending).toBe(false)
  })

  it('the first input is reported once and starts loading what a send needs once it has painted', async () => {
    // A fresh page, where no send has loaded the sender yet; the factory runs when it loads.
    vi.resetModules()
    const loaded = vi.fn()
    vi.doMock('../send-to-own-server', () => {
      loaded()
      return { sendDemoRequest: send }
    })
    const fresh = await import('./use-send-request')
    const { result } = renderHook(() => fresh.useSendRequest(vi.fn(), vi.fn()))
    act(() => result.current.markStarted())
    act(() => result.current.markStarted())
    expect(events()).toEqual([{ event: 'demo_form_start' }])
    expect(loaded).not.toHaveBeenCalled()
    await waitFor(() => expect(loaded).toHaveBeenCalled())
    expect(loaded).toHaveBeenCalledOnce()
  })

  it('a sender that could not be loaded fails the send, and the next send loads it again', async () => {
    vi.resetModules()
    let refused = true
    vi.doMock('../send-to-own-server', () => {
      if (refused) throw new TypeError('Failed to fetch dynamically imported module')
      return { sendDemoRequest: send }
    })
    const fresh = await import('./use-send-request')
    send.mockResolvedValue()
    const { result } = renderHook(() =>
      fresh.useSendRequest(
        vi.fn(() => true),
        vi.fn(),
      ),
    )
    await act(() => result.current.send(form, request, '4321'))
    await waitFor(() => expect(result.current.result).toMatchObject({ kind: 'error' }))
    expect(send).not.toHaveBeenCalled()
    refused = false
    await act(() => result.current.send(form, request, '4321'))
    expect(send).toHaveBeenCalledOnce()
    expect(result.current.result).toEqual({ kind: 'success' })
  })

  it('the alert can be dismissed', async () => {
    send.mockResolvedValue()
    const { result, sendRequest } = renderSend()
    await sendRequest()
    act(() => result.current.dismissResult())
    expect(result.current.result).toBeNull()
  })
})
