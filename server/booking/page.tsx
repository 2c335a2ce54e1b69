// The booking page a browser without JavaScript gets (GET {booking} with Accept text/html, and
// the answer to its form): Spanish, in the site's colours and type, rendered by React
// (renderToStaticMarkup, so every text is escaped one way), with no script. The free times are
// radio buttons `name="start"` grouped by day (a fieldset per day, the Spanish date as its
// legend) in the visitor's likely time zone, which the page names; each value is the start in
// RFC 3339 with that zone's offset. A booked meeting is stated (day, hour, zone, rep, room) with
// a form to change it and one to cancel it.
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import type { BookingTexts } from '../http/index.js'
import { wallClockOf, zoneOffsetMs } from '../settings/index.js'
import type { BookingView } from './bookings.js'

/** The page's words, as content/formulario.yml writes them (`bookingPage`). */
type Words = BookingTexts['page']

/** A text with its `{name}` gaps filled in. */
const filled = (template: string, values: Record<string, number | string>): string =>
  template.replace(/\{(\w+)\}/g, (gap, name: string) => String(values[name] ?? gap))

/** The page's stylesheet, served by routes.ts from this server (the site's CSP allows 'self'). */
export const STYLE_PATH = '/reserva/estilo.css'

const two = (value: number): string => String(value).padStart(2, '0')

/** RFC 3339 with the zone's offset: `2026-12-01T10:00:00-06:00`. */
function localStamp(at: number, zone: string): string {
  const wall = wallClockOf(at, zone)
  const offset = Math.round(zoneOffsetMs(at, zone) / 60_000)
  const sign = offset < 0 ? '-' : '+'
  const hours = two(Math.floor(Math.abs(offset) / 60))
  return (
    `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}:00` +
    `${sign}${hours}:${two(Math.abs(offset) % 60)}`
  )
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/** «martes, 1 de diciembre» in the zone. */
const dayName = (at: number, zone: string): string =>
  capitalised(
    new Intl.DateTimeFormat('es-MX', {
      timeZone: zone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
    }).format(at),
  )

/** «10:00» in the zone. */
const hourOf = (at: number, zone: string): string =>
  new Intl.DateTimeFormat('es-MX', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at)

/** The zone as a person reads it: «hora del centro de México (America/Mexico_City)». */
function zoneName(zone: string, at: number): string {
  const generic = new Intl.DateTimeFormat('es-MX', { timeZone: zone, timeZoneName: 'longGeneric' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value
  return generic === undefined ? zone : `${generic} (${zone.replace(/_/g, ' ')})`
}

/** «Martes, 1 de diciembre, 10:00, hora del centro de México (America/Mexico City)». */
const meetingWhen = (at: number, zone: string): string =>
  `${dayName(at, zone)}, ${hourOf(at, zone)}, ${zoneName(zone, at)}`

/** The free starts by day, in the zone: a fieldset each. */
function days(times: readonly number[], zone: string): { day: string; times: number[] }[] {
  const grouped = new Map<string, number[]>()
  for (const at of times) {
    const day = dayName(at, zone)
    grouped.set(day, [...(grouped.get(day) ?? []), at])
  }
  return [...grouped].map(([day, list]) => ({ day, times: list }))
}

function TimesForm({ words, view, action }: { words: Words; view: BookingView; action: string }) {
  const zone = view.visitorZone
  if (view.times.length === 0) return <p>{words.noTimes}</p>
  return (
    <form method="post" className="times">
      <p className="zone">{filled(words.zone, { zone: zoneName(zone, view.times[0]!) })}</p>
      {days(view.times, zone).map(({ day, times }) => (
        <fieldset key={day}>
          <legend>{day}</legend>
          <div className="slots">
            {times.map((at) => {
              const value = localStamp(at, zone)
              return (
                <label key={at} className="slot">
                  <input type="radio" name="start" value={value} required />
                  <span>{hourOf(at, zone)}</span>
                </label>
              )
            })}
          </div>
        </fieldset>
      ))}
      <button type="submit">{action}</button>
    </form>
  )
}

function Document({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} · GASPRE`}</title>
        <link rel="stylesheet" href={STYLE_PATH} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <header>
          <a href="/" className="brand">
            GASPRE
          </a>
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  )
}

const page = (node: ReactNode): string => `<!doctype html>\n${renderToStaticMarkup(node)}\n`

/** What the page says above the times: a sentence the server chose (a taken time, say). */
type Notice = { kind: 'error' | 'success'; text: string } | null

function NoticeLine({ notice }: { notice: Notice }) {
  if (notice === null) return null
  return (
    <p className={`notice ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      {notice.text}
    </p>
  )
}

/** The page of a booking address: its times, or its meeting with the forms to change or cancel. */
export function bookingHtml(
  words: Words,
  view: BookingView,
  notice: Notice = null,
  sent = false,
): string {
  const meeting = view.meeting
  if (meeting === null) {
    return page(
      <Document title={sent ? words.sentTitle : words.title}>
        <NoticeLine notice={notice} />
        {sent && <p>{words.sentLead}</p>}
        <p>{filled(words.lead, { rep: view.rep.name, minutes: view.minutes })}</p>
        <TimesForm words={words} view={view} action={words.choose} />
      </Document>,
    )
  }
  return page(
    <Document title={words.meetingTitle}>
      <NoticeLine notice={notice} />
      <p className="meeting">
        {filled(words.meeting, {
          when: meetingWhen(meeting.start, view.visitorZone),
          rep: view.rep.name,
        })}
      </p>
      {view.rep.meetingUrl !== null && (
        <p>
          <a className="room" href={view.rep.meetingUrl}>
            {words.room}
          </a>
        </p>
      )}
      <p>{words.roomNote}</p>
      <h2>{words.changeHeading}</h2>
      <TimesForm words={words} view={view} action={words.change} />
      <form method="post" className="cancel">
        <input type="hidden" name="cancel" value="1" />
        <button type="submit">{words.cancel}</button>
      </form>
    </Document>,
  )
}

/** The page after a cancellation: said, and the times again. */
export function cancelledHtml(words: Words, view: BookingView): string {
  return page(
    <Document title={words.cancelledTitle}>
      <p>{words.cancelled}</p>
      <TimesForm words={words} view={{ ...view, meeting: null }} action={words.choose} />
    </Document>,
  )
}

/** An address that leads nowhere, or a calendar that cannot be read: one sentence, a way home. */
export function messageHtml(words: Words, title: string, text: string): string {
  return page(
    <Document title={title}>
      <p>{text}</p>
      <p>
        <a href="/">{words.home}</a>
      </p>
    </Document>,
  )
}
