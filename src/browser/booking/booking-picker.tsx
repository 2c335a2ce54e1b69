import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { bookingCopy as copy, fillIn } from '../../copy/booking'
import { groupByDay, spanishDate, spanishTime, zoneName } from '../../rules/booking-times'
import { afterNextPaint } from '../after-next-paint'
import {
  bookTime,
  cancelMeeting,
  readBooking,
  type BookingOutcome,
  type BookingView,
  type Meeting,
} from './booking-client'
import styles from './booking-picker.module.css'

type Stage =
  /** Reading the free times: nothing shows yet. */
  | { readonly kind: 'reading' }
  /** Nothing to offer: the success message stays as it was, and the rep will write. */
  | { readonly kind: 'none' }
  | {
      readonly kind: 'choosing'
      readonly view: BookingView
      /** The meeting a new time would move; null when booking afresh. */
      readonly current: Meeting | null
      /** The server's sentence after a refusal, or ours. */
      readonly problem: string | null
      /** The meeting was just cancelled. */
      readonly cancelled: boolean
    }
  | {
      readonly kind: 'booked'
      readonly view: BookingView
      readonly meeting: Meeting
      readonly problem: string | null
    }
  /** Cancelled, and no free time to offer now. */
  | { readonly kind: 'cancelled' }

/** The visitor's own time zone, as their browser keeps it. */
const visitorTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

/** The sentence for a booking, change or cancel that did not go through. */
const problemOf = (outcome: BookingOutcome) =>
  (outcome.kind !== 'booked' && outcome.error) || copy.failed

/**
 * What to show once the booking address was read: its meeting, when there is one and the
 * visitor is not changing it; its free times; or `otherwise`, when there is none to offer.
 */
function afterReading(
  view: BookingView | null,
  current: Meeting | null,
  cancelled: boolean,
  otherwise: Stage,
): Stage {
  if (view?.meeting && current === null && !cancelled)
    return { kind: 'booked', view, meeting: view.meeting, problem: null }
  if (view === null || view.times.length === 0) return otherwise
  return { kind: 'choosing', view, current, problem: null, cancelled }
}

/**
 * The rep's free times under the success message, when the door's answer carried a booking
 * address: a radio group per day in the visitor's own time zone, booked without leaving the
 * page; then the meeting, which can be changed or cancelled. Until there are times to show, and
 * when there are none (or the address cannot be read), it shows nothing, so the success
 * message stays as it was. A chunk of its own, loaded only once a request was sent (decision
 * 027).
 */
function BookingPicker({ path }: { path: string }) {
  const [timeZone] = useState(visitorTimeZone)
  const [stage, setStage] = useState<Stage>({ kind: 'reading' })
  const [busy, setBusy] = useState(false)

  /** Reads the free times again and offers them; `otherwise` when there are none. */
  const offerTimes = async (current: Meeting | null, cancelled: boolean, otherwise: Stage) =>
    setStage(afterReading(await readBooking(path), current, cancelled, otherwise))

  useEffect(() => {
    let shown = true
    void readBooking(path).then((view) => {
      if (shown) setStage(afterReading(view, null, false, { kind: 'none' }))
    })
    return () => {
      shown = false
    }
  }, [path])

  /** One booking, change or cancel at a time. */
  const act = (work: () => Promise<void>) => {
    if (busy) return
    setBusy(true)
    void work().finally(() => setBusy(false))
  }

  if (stage.kind === 'reading' || stage.kind === 'none')
    return <div hidden data-booking={stage.kind} />

  if (stage.kind === 'cancelled')
    return (
      <section className={styles.picker} data-booking={stage.kind}>
        <p role="status">{copy.cancelled}</p>
      </section>
    )

  if (stage.kind === 'booked')
    return (
      <MeetingBooked
        stage={stage}
        timeZone={timeZone}
        busy={busy}
        onChange={() =>
          act(() => offerTimes(stage.meeting, false, { ...stage, problem: copy.noOtherTime }))
        }
        onCancel={() =>
          act(async () => {
            const outcome = await cancelMeeting(path)
            if (outcome.kind === 'booked' && outcome.meeting === null)
              return offerTimes(null, true, { kind: 'cancelled' })
            setStage({ ...stage, problem: problemOf(outcome) })
          })
        }
      />
    )

  const book = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const start = new FormData(event.currentTarget).get('start')
    if (typeof start !== 'string') return setStage({ ...stage, problem: copy.chooseFirst })
    act(async () => {
      const outcome = await bookTime(path, start)
      if (outcome.kind === 'booked' && outcome.meeting !== null)
        return setStage({
          kind: 'booked',
          view: stage.view,
          meeting: outcome.meeting,
          problem: null,
        })
      if (outcome.kind === 'taken')
        return setStage({
          ...stage,
          view: { ...stage.view, times: outcome.times },
          problem: outcome.error,
        })
      setStage({ ...stage, problem: problemOf(outcome) })
    })
  }

  return (
    <TimeChoices
      stage={stage}
      timeZone={timeZone}
      busy={busy}
      onBook={book}
      onKeep={(meeting) => setStage({ kind: 'booked', view: stage.view, meeting, problem: null })}
    />
  )
}

/** The rep's free times for the booking address `path`, to show under the success message. */
export const bookingPickerFor = (path: string): ReactNode => <BookingPicker path={path} />

/** The free times as radio buttons, a group per day, and the button that books the one picked. */
function TimeChoices({
  stage,
  timeZone,
  busy,
  onBook,
  onKeep,
}: {
  stage: Extract<Stage, { kind: 'choosing' }>
  timeZone: string
  busy: boolean
  onBook: (event: FormEvent<HTMLFormElement>) => void
  onKeep: (meeting: Meeting) => void
}) {
  const headingId = useId()
  const { view, current } = stage
  const days = groupByDay(view.times, timeZone)
  const first = view.times[0]
  const announcement = useAnnouncement(
    fillIn(copy.announce, { rep: view.repName, count: view.times.length }),
  )
  return (
    <section className={styles.picker} aria-labelledby={headingId} data-booking={stage.kind}>
      {stage.cancelled && <p className={styles.done}>{copy.cancelled}</p>}
      <h3 id={headingId} className={styles.heading}>
        {current ? copy.changeHeading : copy.heading}
      </h3>
      <p>
        {current
          ? fillIn(copy.changing, {
              date: spanishDate(new Date(current.start), timeZone),
              time: spanishTime(new Date(current.start), timeZone),
            })
          : fillIn(copy.intro, { rep: view.repName, minutes: view.minutes })}
      </p>
      {first !== undefined && (
        <p className={styles.zone}>
          {fillIn(copy.zone, { zone: zoneName(new Date(first), timeZone) })}
        </p>
      )}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <form className={styles.form} onSubmit={onBook}>
        {days.map((day) => (
          <fieldset key={day.day} className={styles.day}>
            <legend className={styles.date}>{day.label}</legend>
            <div className={styles.times}>
              {day.times.map((time) => (
                <label key={time.value} className={styles.time}>
                  <input type="radio" name="start" value={time.value} className={styles.radio} />
                  <span className={styles.face}>{time.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        {stage.problem !== null && (
          <p role="alert" className={styles.problem}>
            {stage.problem}
          </p>
        )}
        <div className={styles.actions}>
          <button type="submit" className={styles.action} aria-disabled={busy || undefined}>
            {busy ? copy.booking : copy.book}
          </button>
          {current && (
            <button type="button" className={styles.quiet} onClick={() => onKeep(current)}>
              {copy.keep}
            </button>
          )}
        </div>
      </form>
    </section>
  )
}

/** The meeting as booked: day, hour and zone, the rep, the room; and how to change or cancel it. */
function MeetingBooked({
  stage,
  timeZone,
  busy,
  onChange,
  onCancel,
}: {
  stage: Extract<Stage, { kind: 'booked' }>
  timeZone: string
  busy: boolean
  onChange: () => void
  onCancel: () => void
}) {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const { meeting, view, problem } = stage
  // The statement takes the place of the times: focus moves to it, so a screen reader reads it.
  useEffect(() => heading.current?.focus(), [meeting])
  const start = new Date(meeting.start)
  return (
    <section className={styles.picker} aria-labelledby={headingId} data-booking={stage.kind}>
      <h3 id={headingId} ref={heading} tabIndex={-1} className={styles.heading}>
        {copy.booked.heading}
      </h3>
      <dl className={styles.facts}>
        <div>
          <dt>{copy.booked.day}</dt>
          <dd>{spanishDate(start, timeZone)}</dd>
        </div>
        <div>
          <dt>{copy.booked.hour}</dt>
          <dd>
            {spanishTime(start, timeZone)}, {zoneName(start, timeZone)}
          </dd>
        </div>
        <div>
          <dt>{copy.booked.with}</dt>
          <dd>{view.repName}</dd>
        </div>
      </dl>
      <p>{copy.booked.invitation}</p>
      <a className={styles.action} href={meeting.url} target="_blank" rel="noopener noreferrer">
        {copy.booked.room}
      </a>
      {problem !== null && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.quiet}
          onClick={onChange}
          aria-disabled={busy || undefined}
        >
          {copy.booked.change}
        </button>
        <button
          type="button"
          className={styles.quiet}
          onClick={onCancel}
          aria-disabled={busy || undefined}
        >
          {copy.booked.cancel}
        </button>
      </div>
    </section>
  )
}

/**
 * A sentence for screen readers, written a frame after its live region is in the page: a region
 * that arrives with its text already in it is not read out.
 */
function useAnnouncement(text: string): string {
  const [said, setSaid] = useState('')
  useEffect(() => afterNextPaint(() => setSaid(text)), [text])
  return said
}
