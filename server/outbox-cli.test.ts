import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatOutbox } from './outbox-cli.js'
import { outboxPath, type OutboxRecord } from './outbox.js'
import { OUTBOX_CLI_JS, compileServer } from './testing/spawn-server.js'

const run = promisify(execFile)
let dir: string

const record = (n: number, receivedAt: string, params: Record<string, string>): OutboxRecord => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  receivedAt,
  serviceId: 'service_local',
  templateId: 'template_demo',
  params,
})

const RECORDS = [
  record(1, '2025-09-01T10:00:00.000Z', { user_name: 'Primera', user_email: 'a@x.mx' }),
  record(3, '2025-09-03T10:00:00.000Z', {
    user_name: 'Tercera',
    user_email: 'c@x.mx',
    user_phone: '555 123',
    user_group: 'Grupo Sur',
    message: 'Línea uno\nLínea dos',
    contact_number: '4821',
    utm_source: 'google',
    utm_campaign: 'otoño',
  }),
  record(2, '2025-09-02T10:00:00.000Z', { user_name: 'Segunda', user_email: 'b@x.mx' }),
]

beforeAll(async () => {
  compileServer()
  dir = await mkdtemp(join(tmpdir(), 'gaspre-cli-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('npm run outbox', () => {
  it('says where it looked when nothing is stored', async () => {
    const { stdout } = await run(process.execPath, [OUTBOX_CLI_JS], {
      env: { ...process.env, DATA_DIR: join(dir, 'empty') },
    })
    expect(stdout.trim()).toBe(
      `No demo requests stored yet (looked in ${outboxPath(join(dir, 'empty'))}).`,
    )
  })

  it('lists the stored requests of DATA_DIR newest first, with every param', async () => {
    const data = join(dir, 'data')
    await mkdir(data)
    const lines = RECORDS.map((r) => JSON.stringify(r)).join('\n')
    await writeFile(outboxPath(data), `${lines}\n{"torn`)
    const { stdout } = await run(process.execPath, [OUTBOX_CLI_JS], {
      env: { ...process.env, DATA_DIR: data },
    })
    expect(stdout).toContain(`3 demo requests in ${outboxPath(data)}, newest first`)
    expect(stdout).toContain('1 unreadable line skipped')
    const order = ['Tercera', 'Segunda', 'Primera'].map((name) => stdout.indexOf(name))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    for (const text of [
      '2025-09-03T10:00:00.000Z',
      'c@x.mx',
      '555 123',
      'Grupo Sur',
      'Línea uno',
      'Línea dos',
      'Contact number:',
      '4821',
      'utm_source:',
      'google',
      'otoño',
    ]) {
      expect(stdout).toContain(text)
    }
  })

  it('formats a multi-line message aligned under its label', () => {
    const text = formatOutbox('/x/outbox.jsonl', [RECORDS[1] as OutboxRecord], 0)
    expect(text).toMatch(/ {2}Message: +Línea uno\n {20}Línea dos/)
  })
})
