import { execFileSync } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  OutboxError,
  OutboxWriter,
  newRecord,
  outboxPath,
  readOutbox,
  streamOutbox,
  type OutboxEntry,
} from './outbox.js'

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

  it('starts a new file when the outbox is moved away while the server runs', async () => {
    const file = outboxPath(dir)
    const old = record('old@x.mx')
    // Room for two lines, not three: the cap must count the new file only.
    const writer = new OutboxWriter(file, {
      maxBytes: Math.floor(2.5 * Buffer.byteLength(`${JSON.stringify(old)}\n`)),
    })
    await writer.append(old)
    await rename(file, join(dir, 'outbox-2025-09-01.jsonl'))
    await writer.append(record('new@x.mx'))
    await writer.append(record('newer@x.mx'))
    await writer.close()
    expect((await readOutbox(file)).records.map((r) => r.params.user_email)).toEqual([
      'new@x.mx',
      'newer@x.mx',
    ])
    const moved = await readOutbox(join(dir, 'outbox-2025-09-01.jsonl'))
    expect(moved.records.map((r) => r.params.user_email)).toEqual(['old@x.mx'])
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

const collect = async (entries: AsyncIterable<OutboxEntry>): Promise<string[]> => {
  const seen: string[] = []
  for await (const entry of entries) {
    seen.push('record' in entry ? (entry.record.params.user_email ?? '') : 'skipped')
  }
  return seen
}

describe('streaming the outbox', () => {
  it('reads across multi-byte characters, skipping torn lines', async () => {
    const file = outboxPath(dir)
    const lines = ['ñandú@x.mx', 'é@x.mx', 'ü@x.mx'].map((email) =>
      JSON.stringify(newRecord('s', 't', { user_email: email, message: 'acentos: áéíóú ¿¡' })),
    )
    for (const text of [
      `${lines[0]}\n${lines[1]}\n{"torn\n\n${lines[2]}\n`,
      `${lines[0]}\n${lines[1]}\n{"torn\n\n${lines[2]}`, // no final line break
    ]) {
      await writeFile(file, text)
      const forward = await collect(streamOutbox(file))
      expect(forward).toEqual(['ñandú@x.mx', 'é@x.mx', 'skipped', 'ü@x.mx'])
    }
  })

  it('reads only up to a snapshot size, and a missing file as empty', async () => {
    const file = outboxPath(dir)
    expect(await collect(streamOutbox(file))).toEqual([])
    const first = `${JSON.stringify(record('first@x.mx'))}\n`
    await writeFile(file, `${first}${JSON.stringify(record('later@x.mx'))}\n`)
    const snapshot = Buffer.byteLength(first)
    expect(await collect(streamOutbox(file, snapshot))).toEqual(['first@x.mx'])
  })
})

describe('outbox on a real full disk (a 64 KiB tmpfs)', () => {
  it('acknowledges only whole lines, takes back the partial one, and is ready again once there is room', async (context) => {
    const mountPoint = join(dir, 'disk')
    try {
      execFileSync('mkdir', ['-p', mountPoint])
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], {
        stdio: 'pipe',
      })
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
      console.log(`skipped: cannot mount a tmpfs here (${reason}); the injected faults still run`)
      context.skip()
      return
    }
    try {
      const filler = join(mountPoint, 'filler')
      await writeFile(filler, Buffer.alloc(16 * 1024))
      const file = outboxPath(mountPoint)
      const writer = new OutboxWriter(file, { minFreeBytes: 4096 })
      let acknowledged = 0
      let failure: unknown = null
      while (failure === null && acknowledged < 1_000) {
        const next = newRecord('s', 't', {
          user_email: `${acknowledged}@x.mx`,
          message: 'é'.repeat(500),
        })
        await writer.append(next).then(
          () => acknowledged++,
          (error: unknown) => (failure = error),
        )
      }
      expect(failure).toBeInstanceOf(OutboxError)
      expect((failure as OutboxError).failure).toBe('no-space')
      const { records, skipped } = await readOutbox(file)
      expect(skipped).toBe(0)
      expect(records).toHaveLength(acknowledged)
      const text = await readFile(file, 'utf8')
      expect(text.endsWith('\n')).toBe(true)
      expect((await stat(file)).size).toBe(Buffer.byteLength(text))
      expect(await writer.readiness()).toMatchObject({ ready: false })

      await rm(filler)
      expect(await writer.readiness()).toEqual({ ready: true })
      await writer.append(newRecord('s', 't', { user_email: 'after@x.mx' }))
      await writer.close()
      expect((await readOutbox(file)).records).toHaveLength(acknowledged + 1)
    } finally {
      execFileSync('umount', [mountPoint])
    }
  })
})
