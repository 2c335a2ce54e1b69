import { describe, expect, it } from 'vitest'
import { waitUntil } from './wait-until.ts'

describe('waitUntil', () => {
  it('resolves with the first value that is not undefined, null or false', async () => {
    const answers = [undefined, null, false, 0, 'unreached']
    let looks = 0
    const found = await waitUntil(() => answers[looks++], { what: 'a value', intervalMs: 1 })
    expect(found).toBe(0)
    expect(looks).toBe(4)
  })

  it('awaits a look that returns a promise', async () => {
    let looks = 0
    const found = await waitUntil(async () => (++looks === 3 ? 'ready' : undefined), {
      what: 'the third look',
      intervalMs: 1,
    })
    expect(found).toBe('ready')
  })

  it('gives up at its ceiling, naming what it waited for and the details', async () => {
    await expect(
      waitUntil(() => false, {
        what: 'the moon turns blue',
        timeoutMs: 20,
        intervalMs: 1,
        details: () => 'it stayed white',
      }),
    ).rejects.toThrow(/^gave up after 20 ms waiting until the moon turns blue:\nit stayed white$/)
  })

  it('looks at least once even with no time to wait', async () => {
    expect(await waitUntil(() => 'at once', { what: 'now', timeoutMs: 0 })).toBe('at once')
  })

  it('stops at once when giveUpIf gives a reason, without looking again', async () => {
    let looks = 0
    let exited = false
    const waiting = waitUntil(
      () => {
        looks++
        exited = true
        return undefined
      },
      { what: 'it answers', intervalMs: 1, giveUpIf: () => (exited ? 'it exited' : undefined) },
    )
    await expect(waiting).rejects.toThrow(/^gave up \(it exited\) waiting until it answers$/)
    expect(looks).toBe(1)
  })

  it('ends with the error a look throws', async () => {
    await expect(
      waitUntil(
        () => {
          throw new Error('the look broke')
        },
        { what: 'never' },
      ),
    ).rejects.toThrow('the look broke')
  })
})
