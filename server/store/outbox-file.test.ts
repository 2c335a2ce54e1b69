// The reader of an older server's outbox.jsonl (its import: outbox-import.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { newRecord } from './record.js'
import { streamOutbox, type OutboxEntry } from './outbox-file.js'

let file: string
beforeEach(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'gaspre-outbox-')), 'outbox.jsonl')
})
afterEach(async () => {
  await rm(join(file, '..'), { recursive: true, force: true })
})

const collect = async (entries: AsyncIterable<OutboxEntry>): Promise<string[]> => {
  const seen: string[] = []
  for await (const entry of entries) {
    seen.push(
      'record' in entry ? (entry.record.params.user_email ?? '') : `unreadable ${entry.unreadable}`,
    )
  }
  return seen
}

describe('reading an outbox.jsonl', () => {
  it('reads a missing file as empty', async () => {
    expect(await collect(streamOutbox(file))).toEqual([])
  })

  it('reads across multi-byte characters, and gives torn lines back as they were written', async () => {
    const lines = ['ñandú@x.mx', 'é@x.mx', 'ü@x.mx'].map((email) =>
      JSON.stringify(newRecord('s', 't', { user_email: email, message: 'acentos: áéíóú ¿¡' })),
    )
    for (const text of [
      `${lines[0]}\n${lines[1]}\n{"torn\n\n{"id":1}\n${lines[2]}\n`,
      `${lines[0]}\n${lines[1]}\n{"torn\n\n{"id":1}\n${lines[2]}`, // no final line break
    ]) {
      await writeFile(file, text)
      expect(await collect(streamOutbox(file))).toEqual([
        'ñandú@x.mx',
        'é@x.mx',
        'unreadable {"torn',
        'unreadable {"id":1}',
        'ü@x.mx',
      ])
    }
  })
})
