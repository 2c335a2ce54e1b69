// The WhatsApp routes in the store, shared by every server on it: the rep a request goes to is
// chosen in the transaction that stores it (a turn counter per territory, so the round robin
// holds across restarts and several servers on one PostgreSQL); each message's times as the
// status webhook reports them, in any order and more than once; and the move to the next rep,
// done by one server only (the route's step is compared and set in one transaction), with the
// one mail that says so queued in the same transaction. A message the Cloud API took has its
// escalation written as a job of lead_jobs in the same transaction (decision 021, migration 070):
// a read status removes it, a move on removes it, and working it moves the request on only while
// its message is unread and still the request's step. The channel's room (channels/whatsapp)
// decides; this module keeps what it decided.
import type { Kysely } from 'kysely'
import type { Dialect } from './dialect.js'
import { escalationJob, insertNotices } from './queue.js'
import { toWhatsAppRoute, type UnreadData, type WhatsAppRoute } from './records.js'
import {
  deliveryJobId,
  escalationJobId,
  queuedAnew,
  type Channel,
  type LeadDatabase,
} from './schema.js'

type Db = Kysely<LeadDatabase>

/**
 * The route a request is stored with: its territory, and its reps in the order they are tried
 * when it has had `turn` requests before it there (the round robin).
 */
export interface RouteChoice {
  territory: string
  reps: (turn: number) => string[]
}

/** The counter that numbers the unread notices (the queue keeps one notice per number). */
const NOTICE_COUNTER = '#avisos'

/** Adds one to a counter and returns its new value, atomically on SQLite and PostgreSQL. */
export async function nextTurn(trx: Db, territory: string): Promise<number> {
  const row = await trx
    .insertInto('lead_whatsapp_turns')
    .values({ territory, turns: 1 })
    .onConflict((conflict) =>
      conflict
        .column('territory')
        .doUpdateSet((eb) => ({ turns: eb('lead_whatsapp_turns.turns', '+', 1) })),
    )
    .returning('turns')
    .executeTakeFirstOrThrow()
  return Number(row.turns)
}

/** Writes a request's route, in the transaction that stores it, with its first message. */
export async function assignRoute(trx: Db, requestId: string, choice: RouteChoice): Promise<void> {
  const turn = (await nextTurn(trx, choice.territory)) - 1
  const reps = choice.reps(turn)
  await trx
    .insertInto('lead_whatsapp')
    .values({
      request_id: requestId,
      territory: choice.territory,
      reps: JSON.stringify(reps),
      step: 0,
      round_end: reps.length,
      exhausted_at: null,
    })
    .execute()
  await insertMessage(trx, requestId, 0, reps[0]!)
}

async function insertMessage(trx: Db, requestId: string, step: number, rep: string) {
  await trx
    .insertInto('lead_whatsapp_messages')
    .values({
      request_id: requestId,
      step,
      rep,
      wamid: null,
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      failure: null,
      escalate_at: null,
      moved_on_at: null,
      moved_on_because: null,
    })
    .onConflict((conflict) => conflict.columns(['request_id', 'step']).doNothing())
    .execute()
}

interface MoveOn {
  because: 'unread' | 'failed' | 'refused'
  failure: string | null
  at: number
  /** Channels that carry the mail saying so (the mail only). */
  carriers: readonly Channel[]
  escalateAfterMinutes: number
  /** Queue the WhatsApp delivery again for the next rep (not when the sender goes on itself). */
  requeue: boolean
}

async function queueUnreadNotice(
  trx: Db,
  requestId: string,
  about: Omit<UnreadData, 'requestId' | 'contactNumber' | 'name' | 'group'> & {
    carriers: readonly Channel[]
  },
): Promise<void> {
  if (about.carriers.length === 0) return
  const request = await trx
    .selectFrom('lead_requests')
    .select('params')
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow()
  const params = JSON.parse(request.params) as Record<string, string>
  const unread: UnreadData = {
    requestId,
    contactNumber: params.contact_number ?? '',
    name: params.user_name ?? '',
    group: params.user_group ?? '',
    rep: about.rep,
    because: about.because,
    failure: about.failure,
    next: about.next,
    tried: about.tried,
    minutes: about.minutes,
  }
  const number = await nextTurn(trx, NOTICE_COUNTER)
  const data = { since: new Date().toISOString(), waiting: 0, reason: null, unread }
  await insertNotices(
    trx,
    { type: 'whatsapp.unread', subject: 'whatsapp', outage: number, data, requestId },
    about.carriers,
  )
}

/** Removes the escalation of a message, unless it is gone already. */
async function dropEscalation(trx: Db, requestId: string, step: number): Promise<void> {
  await trx.deleteFrom('lead_jobs').where('id', '=', escalationJobId(requestId, step)).execute()
}

/** One status the Cloud API reported for a message. */
export interface MessageStatus {
  wamid: string
  status: 'sent' | 'delivered' | 'read' | 'failed'
  /** When it happened on the phone or in the API, ms since the epoch. */
  at: number
  failure: string | null
}

/** How long a status of an unknown message is kept: one of another system's messages, say. */
const EARLY_STATUS_DAYS = 1

export class WhatsAppBook {
  /** @internal LeadStore makes one */
  constructor(private readonly dialect: Dialect) {}

  /** The route of a request as it is now (without its messages); null when it has none. */
  private async lockedRoute(trx: Db, requestId: string) {
    let query = trx.selectFrom('lead_whatsapp').selectAll().where('request_id', '=', requestId)
    if (this.dialect.kind === 'postgres') query = query.forUpdate()
    const row = await query.executeTakeFirst()
    return row === undefined ? null : toWhatsAppRoute(row)
  }

  /**
   * The Cloud API took the message of this step: its id, and when it is escalated unread, with
   * the job that escalates it then, in one transaction.
   */
  recordSent(
    requestId: string,
    step: number,
    sent: { wamid: string; at: number; escalateAt: number },
  ): Promise<void> {
    const escalates = Number.isFinite(sent.escalateAt)
    return this.dialect.transact(async (trx) => {
      await trx
        .updateTable('lead_whatsapp_messages')
        .set({
          wamid: sent.wamid,
          sent_at: sent.at,
          escalate_at: escalates ? sent.escalateAt : null,
        })
        .where('request_id', '=', requestId)
        .where('step', '=', step)
        .execute()
      if (!escalates) return
      await trx
        .insertInto('lead_jobs')
        .values(escalationJob(requestId, step, sent.escalateAt))
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute()
    })
  }

  /**
   * A request whose every rep was tried (refused by the Cloud API, or nobody read it) and that is
   * sent again: a new round over the same reps.
   */
  startNewRound(requestId: string): Promise<WhatsAppRoute | null> {
    return this.dialect.transact(async (trx) => {
      const route = await this.lockedRoute(trx, requestId)
      if (route === null || route.exhaustedAt === null) return route
      const step = route.roundEnd
      await trx
        .updateTable('lead_whatsapp')
        .set({ step, round_end: step + route.reps.length, exhausted_at: null })
        .where('request_id', '=', requestId)
        .execute()
      await insertMessage(trx, requestId, step, route.reps[step % route.reps.length]!)
      return {
        ...route,
        step,
        roundEnd: step + route.reps.length,
        exhaustedAt: null,
        rep: route.reps[step % route.reps.length]!,
      }
    })
  }

  /**
   * The message of `step` was not read in time, failed, or was refused: the request goes to the
   * next rep of its round (or, when every rep was tried, stays with nobody), and one mail says so.
   * Null when another server (or an earlier status) moved it on already.
   */
  moveOn(
    requestId: string,
    step: number,
    how: MoveOn,
  ): Promise<{ route: WhatsAppRoute; next: string | null } | null> {
    return this.dialect.transact((trx) => this.moveOnIn(trx, requestId, step, how))
  }

  /**
   * The escalation of the message of `step` is due: the request moves on, as `moveOn`, when the
   * message is still unread and still the request's step; otherwise nothing happens. Either way
   * the escalation's job is gone after, in the same transaction.
   */
  escalate(
    requestId: string,
    step: number,
    how: Omit<MoveOn, 'because' | 'failure' | 'requeue'>,
  ): Promise<{ route: WhatsAppRoute; next: string | null } | null> {
    return this.dialect.transact(async (trx) => {
      const message = await trx
        .selectFrom('lead_whatsapp_messages')
        .select(['read_at', 'moved_on_at'])
        .where('request_id', '=', requestId)
        .where('step', '=', step)
        .executeTakeFirst()
      const unread =
        message !== undefined && message.read_at === null && message.moved_on_at === null
      const moved = unread
        ? await this.moveOnIn(trx, requestId, step, {
            ...how,
            because: 'unread',
            failure: null,
            requeue: true,
          })
        : null
      await dropEscalation(trx, requestId, step)
      return moved
    })
  }

  private async moveOnIn(
    trx: Db,
    requestId: string,
    step: number,
    how: MoveOn,
  ): Promise<{ route: WhatsAppRoute; next: string | null } | null> {
    const route = await this.lockedRoute(trx, requestId)
    if (route === null || route.step !== step || route.exhaustedAt !== null) return null
    await trx
      .updateTable('lead_whatsapp_messages')
      .set({ moved_on_at: how.at, moved_on_because: how.because })
      .where('request_id', '=', requestId)
      .where('step', '=', step)
      .execute()
    // Moved on, for whatever reason: its escalation has nothing left to do.
    await dropEscalation(trx, requestId, step)
    const nextStep = step + 1
    const next = nextStep < route.roundEnd ? route.reps[nextStep % route.reps.length]! : null
    if (next === null) {
      await trx
        .updateTable('lead_whatsapp')
        .set({ exhausted_at: how.at })
        .where('request_id', '=', requestId)
        .execute()
    } else {
      await trx
        .updateTable('lead_whatsapp')
        .set({ step: nextStep })
        .where('request_id', '=', requestId)
        .execute()
      await insertMessage(trx, requestId, nextStep, next)
      if (how.requeue) {
        const now = Date.now()
        await trx
          .updateTable('lead_jobs')
          .set({ ...queuedAnew(now), last_error: null, delivered_at: null })
          .where('id', '=', deliveryJobId(requestId, 'whatsapp'))
          .execute()
      }
    }
    const firstStep = route.roundEnd - route.reps.length
    const tried = route.reps.slice(0, step - firstStep + 1)
    await queueUnreadNotice(trx, requestId, {
      rep: route.rep,
      because: how.because,
      failure: how.failure,
      next,
      tried,
      minutes: how.escalateAfterMinutes,
      carriers: how.carriers,
    })
    return {
      route: { ...route, step: next === null ? step : nextStep, rep: next ?? route.rep },
      next,
    }
  }

  /**
   * Records statuses as they come, in any order and more than once: each time is the earliest
   * reported (read implies delivered). Returns the messages that failed, unread, for moving on.
   */
  async recordStatuses(
    statuses: readonly MessageStatus[],
  ): Promise<{ requestId: string; step: number; failure: string }[]> {
    const failed: { requestId: string; step: number; failure: string }[] = []
    for (const status of statuses) {
      const row = await this.dialect.db
        .selectFrom('lead_whatsapp_messages')
        .selectAll()
        .where('wamid', '=', status.wamid)
        .executeTakeFirst()
      if (row === undefined) {
        // Its message's id is not stored yet (the answer that names it is on its way): kept for
        // a day, applied as soon as it is (earlyStatuses); once per message and status, with
        // its earliest time, however often Meta posts it.
        await this.dialect.db
          .insertInto('lead_whatsapp_early_statuses')
          .values({
            wamid: status.wamid,
            status: status.status,
            at: status.at,
            failure: status.failure,
            received_at: Date.now(),
          })
          .onConflict((conflict) => conflict.columns(['wamid', 'status']).doNothing())
          .execute()
        await this.dialect.db
          .updateTable('lead_whatsapp_early_statuses')
          .set({ at: status.at, failure: status.failure })
          .where('wamid', '=', status.wamid)
          .where('status', '=', status.status)
          .where('at', '>', status.at)
          .execute()
        continue
      }
      const later = (value: number | string | null) => value === null || Number(value) > status.at
      const changes: Partial<Record<'delivered_at' | 'read_at' | 'failed_at', number>> & {
        failure?: string | null
      } = {}
      if ((status.status === 'delivered' || status.status === 'read') && later(row.delivered_at))
        changes.delivered_at = status.at
      if (status.status === 'read' && later(row.read_at)) changes.read_at = status.at
      if (status.status === 'failed' && row.read_at === null && later(row.failed_at)) {
        changes.failed_at = status.at
        changes.failure = status.failure
      }
      // Each time compared again as it is written: two posts of one status at once keep the earliest.
      for (const column of ['delivered_at', 'read_at', 'failed_at'] as const) {
        const at = changes[column]
        if (at === undefined) continue
        await this.dialect.db
          .updateTable('lead_whatsapp_messages')
          .set({
            [column]: at,
            ...(column === 'failed_at' && { failure: changes.failure ?? null }),
          })
          .where('request_id', '=', row.request_id)
          .where('step', '=', row.step)
          .where((eb) => eb.or([eb(column, 'is', null), eb(column, '>', at)]))
          .execute()
      }
      // Read: its escalation has nothing left to do.
      if (changes.read_at !== undefined) {
        await dropEscalation(this.dialect.db, row.request_id, row.step)
      }
      if (changes.failed_at !== undefined && row.moved_on_at === null) {
        failed.push({ requestId: row.request_id, step: row.step, failure: status.failure ?? '' })
      }
    }
    return failed
  }

  /**
   * The statuses that came before their message's id was stored, now that it is; they are taken
   * out of the waiting table (those older than a day are dropped: never ours).
   */
  async earlyStatuses(): Promise<MessageStatus[]> {
    await this.dialect.db
      .deleteFrom('lead_whatsapp_early_statuses')
      .where('received_at', '<', Date.now() - EARLY_STATUS_DAYS * 24 * 60 * 60 * 1000)
      .execute()
    const rows = await this.dialect.db
      .selectFrom('lead_whatsapp_early_statuses as e')
      .innerJoin('lead_whatsapp_messages as m', 'm.wamid', 'e.wamid')
      .select(['e.wamid', 'e.status', 'e.at', 'e.failure'])
      .limit(500)
      .execute()
    if (rows.length === 0) return []
    await this.dialect.db
      .deleteFrom('lead_whatsapp_early_statuses')
      .where(
        'wamid',
        'in',
        rows.map((row) => row.wamid),
      )
      .execute()
    return rows.map((row) => ({
      wamid: row.wamid,
      status: row.status as MessageStatus['status'],
      at: Number(row.at),
      failure: row.failure,
    }))
  }
}
