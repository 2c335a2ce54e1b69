// How each delivery channel is doing, kept in the store so that every server on it agrees: when
// a channel began failing and why, when the next probe may go (and which server takes it), when
// it last delivered, and whether this outage's notices were queued.
import type { Kysely } from 'kysely'
import type { Dialect } from './dialect.js'
import type { ChannelsTable, LeadDatabase, Watched } from './schema.js'

export interface ChannelState {
  channel: Watched
  /** When the current outage began (ms since the epoch); null while the channel delivers. */
  failingSince: number | null
  failures: number
  lastError: string | null
  nextProbeAt: number | null
  lastSuccessAt: number | null
  outageNotified: boolean
}

/** How stale the last success may be before a delivery records it again. */
const SUCCESS_REFRESH_MS = 2_000

const orNull = (value: number | string | null): number | null =>
  value === null ? null : Number(value)

const toState = (row: ChannelsTable): ChannelState => ({
  channel: row.channel,
  failingSince: orNull(row.failing_since),
  failures: row.failures,
  lastError: row.last_error,
  nextProbeAt: orNull(row.next_probe_at),
  lastSuccessAt: orNull(row.last_success_at),
  outageNotified: row.outage_notified === 1,
})

const delivering = (channel: Watched): ChannelState => ({
  channel,
  failingSince: null,
  failures: 0,
  lastError: null,
  nextProbeAt: null,
  lastSuccessAt: null,
  outageNotified: false,
})

export class ChannelBook {
  /** @internal LeadStore makes one */
  constructor(private readonly dialect: Dialect) {}

  /** The state of each of `channels`; one never heard of delivers. */
  async states(channels: readonly Watched[]): Promise<Map<Watched, ChannelState>> {
    const states = new Map(channels.map((channel) => [channel, delivering(channel)]))
    if (channels.length === 0) return states
    const rows = await this.dialect.db
      .selectFrom('lead_channels')
      .selectAll()
      .where('channel', 'in', channels)
      .execute()
    for (const row of rows) states.set(row.channel, toState(row))
    return states
  }

  /** Reads a channel's row inside a transaction, locked on PostgreSQL; made when missing. */
  private async lockedState(trx: Kysely<LeadDatabase>, channel: Watched): Promise<ChannelState> {
    await trx
      .insertInto('lead_channels')
      .values({ channel, failures: 0, outage_notified: 0 })
      .onConflict((conflict) => conflict.column('channel').doNothing())
      .execute()
    let query = trx.selectFrom('lead_channels').selectAll().where('channel', '=', channel)
    if (this.dialect.kind === 'postgres') query = query.forUpdate()
    return toState(await query.executeTakeFirstOrThrow())
  }

  /**
   * A send that began at `startedAt` failed for a reason that would fail any send on the
   * channel: it is failing (since now, if it was not), and its next probe waits
   * `probeDelayMs(failures)`. A send that began before the channel last delivered tells nothing
   * new and changes nothing. Returns whether this call began the outage (so that one server
   * says so).
   */
  recordFault(
    channel: Watched,
    reason: string,
    startedAt: number,
    probeDelayMs: (failures: number) => number,
  ): Promise<{ began: boolean }> {
    return this.dialect.transact(async (trx) => {
      const state = await this.lockedState(trx, channel)
      const now = Date.now()
      const stale =
        state.failingSince === null &&
        state.lastSuccessAt !== null &&
        state.lastSuccessAt > startedAt
      if (stale) return { began: false }
      const failures = state.failures + 1
      const failingSince = state.failingSince ?? now
      await trx
        .updateTable('lead_channels')
        .set({
          failing_since: failingSince,
          failures,
          last_error: reason,
          next_probe_at: now + probeDelayMs(failures),
        })
        .where('channel', '=', channel)
        .execute()
      return { began: state.failingSince === null }
    })
  }

  /**
   * A send went through the channel (delivered, or refused for a fault of its own): it works.
   * Returns the outage this ended, if any, and whether its notices had gone out.
   */
  async recordWorks(
    channel: Watched,
    delivered: boolean,
  ): Promise<{ since: number; notified: boolean; reason: string | null } | null> {
    // A channel that delivers, and said so a moment ago, needs no write: one commit less a send.
    const known = (await this.states([channel])).get(channel)!
    const fresh =
      known.lastSuccessAt !== null && Date.now() - known.lastSuccessAt < SUCCESS_REFRESH_MS
    if (known.failingSince === null && (!delivered || fresh)) return null
    return this.dialect.transact(async (trx) => {
      const state = await this.lockedState(trx, channel)
      const now = Date.now()
      await trx
        .updateTable('lead_channels')
        .set({
          failing_since: null,
          failures: 0,
          next_probe_at: null,
          outage_notified: 0,
          ...(delivered && { last_success_at: now }),
        })
        .where('channel', '=', channel)
        .execute()
      return state.failingSince === null
        ? null
        : { since: state.failingSince, notified: state.outageNotified, reason: state.lastError }
    })
  }

  /**
   * Takes the next probe of a failing channel for `leaseMs`, if it is due and no other server
   * took it: one delivery at a time goes to a channel that fails.
   */
  async takeProbe(channel: Watched, leaseMs: number): Promise<boolean> {
    const now = Date.now()
    const result = await this.dialect.db
      .updateTable('lead_channels')
      .set({ next_probe_at: now + leaseMs })
      .where('channel', '=', channel)
      .where('failing_since', 'is not', null)
      .where('next_probe_at', '<=', now)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Gives a probe back unused (nothing waited on the channel): the next look may take it. */
  async releaseProbe(channel: Watched): Promise<void> {
    await this.dialect.db
      .updateTable('lead_channels')
      .set({ next_probe_at: Date.now() })
      .where('channel', '=', channel)
      .where('failing_since', 'is not', null)
      .execute()
  }

  /** Marks the outage that began at `since` as told; true for the one server that did it first. */
  async claimOutageNotice(channel: Watched, since: number): Promise<boolean> {
    const result = await this.dialect.db
      .updateTable('lead_channels')
      .set({ outage_notified: 1 })
      .where('channel', '=', channel)
      .where('failing_since', '=', since)
      .where('outage_notified', '=', 0)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }
}
