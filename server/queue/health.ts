// How delivery is doing, for an uptime monitor (`GET /healthz/delivery`), the metrics and the
// listing: per configured channel, whether it delivers, and whether it has failed or kept a
// request waiting for LEADS_ALERT_AFTER_SECONDS; and how many requests wait for a person (dead
// letters, held ones). The reps' calendars, read for the booking, are watched the same way
// (`calendar`), with nothing ever waiting on them. The public answer names channels, states and
// counts only: no address, host or error text.
import type { Channel, ChannelBacklog, ChannelState, LeadStore, Watched } from '../store/index.js'

/** `delivering`; `failing` (not yet for long); `down`: failing, or a request waiting, too long. */
export type ChannelHealth = 'delivering' | 'failing' | 'down'

export interface ChannelReport {
  state: ChannelState
  backlog: ChannelBacklog
  health: ChannelHealth
}

const NOTHING_WAITS: ChannelBacklog = { pending: 0, oldestQueuedAt: null, failed: 0 }

export async function channelReports(
  store: LeadStore,
  channels: readonly Watched[],
  alertAfterMs: number,
  now = Date.now(),
): Promise<ChannelReport[]> {
  const lanes = channels.filter((channel): channel is Channel => channel !== 'calendar')
  const [states, backlogs] = await Promise.all([
    store.channels.states(channels),
    store.queue.backlogs(lanes),
  ])
  return channels.map((channel) => {
    const state = states.get(channel)!
    const backlog = channel === 'calendar' ? NOTHING_WAITS : backlogs.get(channel)!
    const failingTooLong = state.failingSince !== null && now - state.failingSince >= alertAfterMs
    const waitingTooLong =
      backlog.oldestQueuedAt !== null && now - backlog.oldestQueuedAt >= alertAfterMs
    const health: ChannelHealth =
      failingTooLong || waitingTooLong
        ? 'down'
        : state.failingSince !== null
          ? 'failing'
          : 'delivering'
    return { state, backlog, health }
  })
}

/**
 * The public body of `/healthz/delivery`, and whether it is a 200. `deadLetters` (deliveries
 * that failed for good) and `held` (requests held in a flood) wait for a person, but leave it a
 * 200: every channel still delivers (the contract), and an uptime monitor that pages on them
 * reads the numbers (docs/production.md, Health; decision 025).
 */
export interface DeliveryHealth {
  ok: boolean
  body: {
    status: 'ok' | 'failing'
    channels: Partial<Record<Watched, ChannelHealth>>
    deadLetters: number
    held: number
  }
}

export async function deliveryHealth(
  store: LeadStore,
  channels: readonly Watched[],
  alertAfterMs: number,
): Promise<DeliveryHealth> {
  const [reports, held] = await Promise.all([
    channelReports(store, channels, alertAfterMs),
    store.heldCount(),
  ])
  const ok = reports.every((report) => report.health !== 'down')
  return {
    ok,
    body: {
      status: ok ? 'ok' : 'failing',
      channels: Object.fromEntries(reports.map((report) => [report.state.channel, report.health])),
      deadLetters: reports.reduce((sum, report) => sum + report.backlog.failed, 0),
      held,
    },
  }
}
