// The privacy notice says what the server does: the retention period it states is the one the
// server applies unless LEADS_RETENTION_DAYS says otherwise (then the notice must change too).
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { SETTINGS } from '../settings/config.js'

it('content/privacidad.md names the default retention period in its section on retention', () => {
  const notice = readFileSync('content/privacidad.md', 'utf8')
  const start = notice.indexOf('{#privacidad-conservacion}')
  expect(start).toBeGreaterThan(-1)
  const section = notice.slice(start).split('\n## ')[0]!
  expect(section).toContain(`${SETTINGS.LEADS_RETENTION_DAYS.default} días`)
})
