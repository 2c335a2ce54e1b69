import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OutboxWriter, newRecord, outboxPath, readOutbox } from './outbox.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gaspre-outbox-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const record = (email: string) => newRecord('s', 't', { user_email: email, message: 'a\nb "c"' })

describe('outbox', () => {
  it('reads back what was appended, creating the data directory', async () => {
    const file = outboxPath(join(dir, 'nested', 'data'))
    const writer = new OutboxWriter(file)
    const first = record('a@x.mx')
    await writer.append(first)
    await writer.append(record('b@x.mx'))
    await writer.close()
    const { records, skipped } = await readOutbox(file)
    expect(skipped).toBe(0)
    expect(records[0]).toEqual(first)
    expect(records.map((r) => r.params.user_email)).toEqual(['a@x.mx', 'b@x.mx'])
  })

  it('serializes 200 concurrent appends into 200 whole lines', async () => {
    const file = outboxPath(dir)
    const writer = new OutboxWriter(file)
    await Promise.all(Array.from({ length: 200 }, (_, i) => writer.append(record(`${i}@x.mx`))))
    await writer.close()
    const lines = (await readFile(file, 'utf8')).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(200)
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow()
    // Appends land in call order.
    expect(lines.map((line) => JSON.parse(line).params.user_email)).toEqual(
      Array.from({ length: 200 }, (_, i) => `${i}@x.mx`),
    )
  })

  it('skips a torn last line and starts the next record on a fresh line', async () => {
    const file = outboxPath(dir)
    const writer = new OutboxWriter(file)
    await writer.append(record('before@x.mx'))
    await writer.close()
    await appendFile(file, '{"id":"torn","receivedAt":"2025-') // a crash mid-write
    expect((await readOutbox(file)).skipped).toBe(1)

    const restarted = new OutboxWriter(file)
    await restarted.append(record('after@x.mx'))
    await restarted.close()
    const { records, skipped } = await readOutbox(file)
    expect(skipped).toBe(1)
    expect(records.map((r) => r.params.user_email)).toEqual(['before@x.mx', 'after@x.mx'])
  })

  it('skips lines that are not records, and reads a missing file as empty', async () => {
    const file = outboxPath(dir)
    expect(await readOutbox(file)).toEqual({ records: [], skipped: 0 })
    await writeFile(file, `not json\n{"id":1}\n\n${JSON.stringify(record('ok@x.mx'))}\n`)
    const { records, skipped } = await readOutbox(file)
    expect(skipped).toBe(2)
    expect(records).toHaveLength(1)
  })

  it('reports a failed append and recovers once the cause is gone', async () => {
    const blocker = join(dir, 'data')
    await writeFile(blocker, 'a file where the directory should be')
    const writer = new OutboxWriter(outboxPath(blocker))
    await expect(writer.append(record('x@x.mx'))).rejects.toThrow()
    await rm(blocker)
    await writer.append(record('y@x.mx'))
    await writer.close()
    expect((await readOutbox(outboxPath(blocker))).records).toHaveLength(1)
  })
})
