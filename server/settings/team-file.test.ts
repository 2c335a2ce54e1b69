// LEADS_TEAM_FILE as the sales manager writes it: the examples of docs/production.md and
// docs/sales-team.md are read as they are; a wrong file stops the start with one line naming the
// rep and the key; WhatsApp takes its reps from it, and LEADS_WHATSAPP_ROUTES keeps working
// without it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from './config.js'
import { parseTeam, territoryOf } from './team-file.js'
import { parseWorkingHours } from './working-hours.js'

const folder = mkdtempSync(join(tmpdir(), 'gaspre-team-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
let files = 0
const teamFile = (text: string): string => {
  const path = join(folder, `team-${files++}.yml`)
  writeFileSync(path, text)
  return path
}

/** The first ```yaml block of a guide under a heading. */
const exampleOf = (guide: string, heading: string): string => {
  const text = readFileSync(guide, 'utf8')
  const section = text.slice(text.indexOf(heading))
  return /```yaml\n([\s\S]*?)```/.exec(section)![1]!
}

const WHATSAPP = {
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_TOKEN: 'EAAGtoken0123456789',
  WHATSAPP_TEMPLATE: 'solicitud_demo_nueva',
  WHATSAPP_VERIFY_TOKEN: 'una-cadena',
  WHATSAPP_APP_SECRET: '0123456789abcdef0123',
}
const DEFAULTS = {
  hours: parseWorkingHours('lun-vie 09:00-19:00')!,
  timeZone: 'America/Mexico_City',
}

describe('the sales team file', () => {
  it('reads the example of docs/production.md: reps, calendars, hours and zones', () => {
    const team = parseTeam(exampleOf('docs/production.md', '#### The sales team file'), DEFAULTS)
    expect(team.meetingMinutes).toBe(30)
    expect(team.reps.map((rep) => rep.name)).toEqual([
      'Ana López',
      'Jorge Ruiz',
      'Equipo de ventas',
    ])
    const [ana, jorge, rest] = team.reps
    expect(ana).toMatchObject({
      email: 'ana@gaspre.mx',
      whatsapp: '+5215511111111',
      countries: ['52'],
      meetingUrl: 'https://meet.google.com/abc-defg-hij',
      timeZone: 'America/Mexico_City',
    })
    expect(ana!.hours[1]).toEqual([[9 * 60, 18 * 60]])
    expect(jorge).toMatchObject({ timeZone: 'Europe/Madrid', countries: ['34'] })
    expect(jorge!.calendar).toMatch(/\/personal\/$/)
    // A rep without hours works the team's.
    expect(rest!.hours).toBe(DEFAULTS.hours)
    expect(territoryOf(team, '34').reps).toEqual([jorge])
    expect(territoryOf(team, '57')).toEqual({ territory: '*', reps: [rest] })
  })

  it('reads the example the sales manager is given in docs/sales-team.md', () => {
    const team = parseTeam(
      exampleOf('docs/sales-team.md', '## El equipo de ventas en un archivo'),
      DEFAULTS,
    )
    expect(team.reps).toHaveLength(3)
  })

  it('WhatsApp takes its reps from the file, in turn by country, with a default', () => {
    const path = teamFile(exampleOf('docs/production.md', '#### The sales team file'))
    const config = readConfig({ ...WHATSAPP, LEADS_TEAM_FILE: path }, folder)
    expect(config.team?.reps).toHaveLength(3)
    expect(config.delivery.whatsapp?.routes).toEqual({
      territories: new Map([
        ['52', ['+5215511111111']],
        ['34', ['+34600111222']],
      ]),
      fallback: ['+5215533333333'],
    })
    // Without the file, the routes as before.
    const routes = readConfig({ ...WHATSAPP, LEADS_WHATSAPP_ROUTES: '*=+5215533333333' }, folder)
    expect(routes.team).toBeNull()
    expect(routes.delivery.whatsapp?.routes.fallback).toEqual(['+5215533333333'])
  })

  it.each([
    [
      'reps:\n  - name: Ana\n    email: ana@gaspre.mx\n    countries: ["+52"]\n    calendar: mi agenda\n    meeting_url: https://meet.example.com/a\n',
      'rep 1 (Ana): calendar must be an https:// or webcal:// address, not "mi agenda"',
    ],
    [
      'reps:\n  - name: Ana\n    email: ana@gaspre.mx\n    countries: ["+52"]\n  - name: Jorge\n    email: jorge@gaspre.mx\n    countries: ["+34"]\n    hours: 9 a 2\n',
      'rep 2 (Jorge): hours must be days and hours such as "lun-vie 09:00-18:00", not "9 a 2"',
    ],
    [
      'reps:\n  - name: Ana\n    email: ana@gaspre.mx\n    countries: ["52"]\n',
      'rep 1 (Ana): countries "52" is not a calling code such as "+52" or "+34", nor "*"',
    ],
    [
      'reps:\n  - name: Ana\n    email: ana@gaspre.mx\n    countries: ["*"]\n    calendar: https://cal.example.com/ana.ics\n',
      'rep 1 (Ana): meeting_url is missing: a rep with a calendar needs the room the invitation names',
    ],
    [
      'reps:\n  - name: Ana\n    mail: ana@gaspre.mx\n',
      'rep 1 (Ana): mail is not a key a rep takes',
    ],
    [
      'meeting_minutes: 5\nreps: []\n',
      'meeting_minutes must be a whole number of minutes from 10 to 240',
    ],
  ])('a wrong file stops the start with one line naming the rep and the key (%#)', (text, said) => {
    const path = teamFile(text)
    expect(() => readConfig({ LEADS_TEAM_FILE: path }, folder)).toThrow(ConfigError)
    expect(() => readConfig({ LEADS_TEAM_FILE: path }, folder)).toThrow(
      `LEADS_TEAM_FILE ${path}: ${said}`,
    )
  })

  it('refuses both LEADS_TEAM_FILE and LEADS_WHATSAPP_ROUTES, and a file without a default for WhatsApp', () => {
    const path = teamFile(
      'reps:\n  - name: Ana\n    email: ana@gaspre.mx\n    whatsapp: "+5215511111111"\n    countries: ["+52"]\n',
    )
    expect(() =>
      readConfig({ LEADS_TEAM_FILE: path, LEADS_WHATSAPP_ROUTES: '*=+5215533333333' }, folder),
    ).toThrow('LEADS_WHATSAPP_ROUTES must be unset when LEADS_TEAM_FILE is')
    expect(() => readConfig({ ...WHATSAPP, LEADS_TEAM_FILE: path }, folder)).toThrow(
      `LEADS_TEAM_FILE ${path} has no rep with whatsapp and countries ["*"]`,
    )
    expect(() => readConfig({ LEADS_TEAM_FILE: join(folder, 'none.yml') }, folder)).toThrow(
      `LEADS_TEAM_FILE ${join(folder, 'none.yml')} cannot be read (ENOENT)`,
    )
  })
})
