// The reader of an older server's outbox.jsonl (the import at start, --import, erasure).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { newRecord } from './record.js'
import { outboxPath, readOutbox, streamOutbox, type OutboxEntry } from './outbox-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gaspre-outbox-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const record = (email: string) => newRecord('s', 't', { user_email: email, message: 'a\nb "c"' })

describe('reading an outbox.jsonl', () => {
  it('skips lines that are not records, and reads a missing file as empty', async () => {
    const file = outboxPath(dir)
    expect(await readOutbox(file)).toEqual({ records: [], skipped: 0 })
    await writeFile(file, `not json\n{"id":1}\n\n${JSON.stringify(record('ok@x.mx'))}\n`)
    const { records, skipped } = await readOutbox(file)
    expect(skipped).toBe(2)
    expect(records).toHaveLength(1)
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
