import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mailConfig } from '../config/build-values'

const created = vi.fn()
const preload = vi.fn()
const send = vi.fn<(params: Record<string, string>) => Promise<void>>()
vi.mock('./sdk-sender', () => ({
  createSdkSender: (...args: unknown[]) => {
    created(...args)
    return { preload, send }
  },
}))

/** A fresh page: the module keeps its sender for as long as the page lives. */
const loadPage = async () => (await import('./demo-request-sender')).demoRequestSender

beforeEach(() => vi.resetModules())
afterEach(() => {
  created.mockReset()
  preload.mockReset()
  send.mockReset()
})

describe('demoRequestSender', () => {
  it('fetches the sender on first use only, set up for this page', async () => {
    const sender = await loadPage()
    expect(created).not.toHaveBeenCalled()
    sender.preload()
    await vi.waitFor(() => expect(preload).toHaveBeenCalledOnce())
    expect(created).toHaveBeenCalledExactlyOnceWith(mailConfig, {
      storage: expect.objectContaining({ get: expect.any(Function) }),
      pageOrigin: expect.any(Function),
    })
    expect(created.mock.calls[0]![1].pageOrigin()).toBe(window.location.origin)
  })

  it('sends through that one sender, preloaded or not', async () => {
    send.mockResolvedValue()
    const sender = await loadPage()
    await sender.send({ user_name: 'Ana' })
    sender.preload()
    await sender.send({ user_name: 'Luis' })
    expect(send.mock.calls).toEqual([[{ user_name: 'Ana' }], [{ user_name: 'Luis' }]])
    expect(created).toHaveBeenCalledOnce()
  })

  it('a sender whose code could not be fetched is fetched again on the next send', async () => {
    const refused = new TypeError('Failed to fetch dynamically imported module')
    created.mockImplementationOnce(() => {
      throw refused
    })
    send.mockResolvedValue()
    const sender = await loadPage()
    await expect(sender.send({ user_name: 'Ana' })).rejects.toBe(refused)
    expect(send).not.toHaveBeenCalled()
    await sender.send({ user_name: 'Ana' })
    expect(created).toHaveBeenCalledTimes(2)
    expect(send).toHaveBeenCalledExactlyOnceWith({ user_name: 'Ana' })
  })
})
