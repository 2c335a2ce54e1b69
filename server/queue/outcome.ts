// What one send through a channel can come to, and who is to blame: the channel (any send would
// fail now: hold the channel, keep the job), or the job itself (this message or this body: retry
// it, or make it a dead letter once the channel is seen delivering others).
import type { Job } from '../store/index.js'
import { bounded, errorText } from '../text/index.js'

export type Outcome =
  /** Taken: by every recipient, for a mail. */
  | { kind: 'delivered'; note?: string }
  /** Any send on the channel would fail now: the job waits, uncounted, for the channel. */
  | { kind: 'channel-fault'; reason: string }
  /** This job failed for a reason that may pass (SMTP 451 at the end of DATA, 452 for one
   *  recipient, WhatsApp's pair rate limit for one rep): tried again later, for up to three
   *  days; not before `waitMs` when the peer says how long to wait. */
  | { kind: 'retry'; reason: string; waitMs?: number }
  /** This job was refused for good (SMTP 552/554 for this message, webhook 400/413/422 for this
   *  body). `proven`: the channel took other work in the same session, so it is not to blame. */
  | { kind: 'rejected'; reason: string; proven: boolean }

/** What a mail's recipients answered, when some took it and some did not. */
export interface RecipientAnswers {
  /** Took the mail, in this send or before. */
  done: string[]
  /** Refused it for good. */
  refused: string[]
}

export interface Sender {
  /**
   * Sends one job. Resolves with the outcome, never rejects; `signal` aborts it (a deadline or
   * a stop), which resolves as a channel fault. `recipients` is told who answered what, for a
   * mail, before the outcome.
   */
  send(
    job: Job,
    signal: AbortSignal,
    recipients: (answers: RecipientAnswers) => Promise<void>,
  ): Promise<Outcome>
}

/** Why a send was cut short, as the signal's reason says. */
export const abortReason = (signal: AbortSignal): string =>
  bounded(errorText(signal.reason ?? 'aborted'))
