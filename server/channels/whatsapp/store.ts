// The WhatsApp routes in the store, shared by every server on it: the rep a request goes to is
// chosen in the transaction that stores it (a turn counter per territory, so the round robin
// holds across restarts and several servers on one PostgreSQL); each message's times as the
// status webhook reports them, in any order and more than once; and the move to the next rep,
// done by one server only (the route's step is compared and set in one transaction), with the
// one mail that says so queued in the same transaction.
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { CountryCode } from 'libphonenumber-js/max'
import type { DemoRequestRecord } from '../../store/index.js'
import {
  queuedAnew,
  toWhatsAppRoute,
  type Channel,
  type LeadDatabase,
  type LeadStore,
  type UnreadData,
  type WhatsAppRoute,
} from '../../store/index.js'
import { parsePhone } from '../../settings/index.js'
import { repsInTurn, type WhatsAppRoutes } from '../../settings/index.js'

type Db = Kysely<LeadDatabase>

/** The counter that numbers the unread notices (lead_notices keeps one per number). */
const NOTICE_COUNTER = '#avisos'

/** Adds one to a counter and returns its new value, atomically on SQLite and PostgreSQL. */
async function nextTurn(trx: Db, territory: string): Promise<number> {
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

/**
 * What LeadStore.append writes with a request when WhatsApp is on: its territory (by the
 * visitor's phone), its reps starting with the one whose turn it is, and the first message.
 */
export function assignRep(routes: WhatsAppRoutes, regions: readonly CountryCode[]) {
  return async (trx: Db, record: DemoRequestRecord): Promise<void> => {
    const phone = parsePhone(record.params.user_phone ?? '', regions)
    const callingCode =
      phone !== null && routes.territories.has(phone.callingCode) ? phone.callingCode : null
    const territory = callingCode === null ? '*' : `+${callingCode}`
    const turn = (await nextTurn(trx, territory)) - 1
    const { reps } = repsInTurn(routes, callingCode, turn)
    await trx
      .insertInto('lead_whatsapp')
      .values({
        request_id: record.id,
        territory,
        reps: JSON.stringify(reps),
        step: 0,
        round_end: reps.length,
        exhausted_at: null,
      })
      .execute()
    await insertMessage(trx, record.id, 0, reps[0]!)
  }
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

/** The route of a request as it is now (without its messages); null when it has none. */
async function lockedRoute(store: LeadStore, trx: Db, requestId: string) {
  let query = trx.selectFrom('lead_whatsapp').selectAll().where('request_id', '=', requestId)
  if (store.kind === 'postgres') query = query.forUpdate()
  const row = await query.executeTakeFirst()
  return row === undefined ? null : toWhatsAppRoute(row)
}

/** The Cloud API took the message of this step: its id, and when it is escalated unread. */
export async function recordSent(
  store: LeadStore,
  requestId: string,
  step: number,
  sent: { wamid: string; at: number; escalateAt: number },
): Promise<void> {
  await store.db
    .updateTable('lead_whatsapp_messages')
    .set({
      wamid: sent.wamid,
      sent_at: sent.at,
      escalate_at: Number.isFinite(sent.escalateAt) ? sent.escalateAt : null,
    })
    .where('request_id', '=', requestId)
    .where('step', '=', step)
    .execute()
}

/**
 * A request whose every rep was tried (refused by the Cloud API, or nobody read it) and that is
 * sent again: a new round over the same reps.
 */
export function startNewRound(store: LeadStore, requestId: string): Promise<WhatsAppRoute | null> {
  return store.atomically(async (trx) => {
    const route = await lockedRoute(store, trx, requestId)
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

/**
 * The message of `step` was not read in time, failed, or was refused: the request goes to the
 * next rep of its round (or, when every rep was tried, stays with nobody), and one mail says so.
 * Null when another server (or an earlier status) moved it on already.
 */
export function moveOn(
  store: LeadStore,
  requestId: string,
  step: number,
  how: MoveOn,
): Promise<{ route: WhatsAppRoute; next: string | null } | null> {
  return store.atomically(async (trx) => {
    const route = await lockedRoute(store, trx, requestId)
    if (route === null || route.step !== step || route.exhaustedAt !== null) return null
    await trx
      .updateTable('lead_whatsapp_messages')
      .set({ moved_on_at: how.at, moved_on_because: how.because })
      .where('request_id', '=', requestId)
      .where('step', '=', step)
      .execute()
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
          .updateTable('lead_deliveries')
          .set({ ...queuedAnew(now), last_error: null, delivered_at: null })
          .where('request_id', '=', requestId)
          .where('channel', '=', 'whatsapp')
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
  })
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
  const now = Date.now()
  await trx
    .insertInto('lead_notices')
    .values(
      about.carriers.map((carrier) => ({
        id: randomUUID(),
        carrier,
        type: 'whatsapp.unread' as const,
        subject: 'whatsapp' as const,
        outage: number,
        data: JSON.stringify({
          since: new Date(now).toISOString(),
          waiting: 0,
          reason: null,
          unread,
        }),
        created_at: new Date(now).toISOString(),
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        last_error: null,
        delivered_at: null,
      })),
    )
    .execute()
}

/** One status the Cloud API reported for a message. */
export interface MessageStatus {
  wamid: string
  status: 'sent' | 'delivered' | 'read' | 'failed'
  /** When it happened on the phone or in the API, ms since the epoch. */
  at: number
  failure: string | null
}

/**
 * Records statuses as they come, in any order and more than once: each time is the earliest
 * reported (read implies delivered). Returns the messages that failed, unread, for moving on.
 */
export async function recordStatuses(
  store: LeadStore,
  statuses: readonly MessageStatus[],
): Promise<{ requestId: string; step: number; failure: string }[]> {
  const failed: { requestId: string; step: number; failure: string }[] = []
  for (const status of statuses) {
    const row = await store.db
      .selectFrom('lead_whatsapp_messages')
      .selectAll()
      .where('wamid', '=', status.wamid)
      .executeTakeFirst()
    if (row === undefined) {
      // Its message's id is not stored yet (the answer that names it is on its way): kept for
      // a day, applied as soon as it is (earlyStatuses).
      await store.db
        .insertInto('lead_whatsapp_early_statuses')
        .values({
          wamid: status.wamid,
          status: status.status,
          at: status.at,
          failure: status.failure,
          received_at: Date.now(),
        })
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
      await store.db
        .updateTable('lead_whatsapp_messages')
        .set({ [column]: at, ...(column === 'failed_at' && { failure: changes.failure ?? null }) })
        .where('request_id', '=', row.request_id)
        .where('step', '=', row.step)
        .where((eb) => eb.or([eb(column, 'is', null), eb(column, '>', at)]))
        .execute()
    }
    if (changes.failed_at !== undefined && row.moved_on_at === null) {
      failed.push({ requestId: row.request_id, step: row.step, failure: status.failure ?? '' })
    }
  }
  return failed
}

/** Messages whose rep has not read them by their deadline, and that are still the current step. */
export async function dueUnread(
  store: LeadStore,
  now: number,
): Promise<{ requestId: string; step: number }[]> {
  const rows = await store.db
    .selectFrom('lead_whatsapp_messages as m')
    .innerJoin('lead_whatsapp as w', 'w.request_id', 'm.request_id')
    .select(['m.request_id', 'm.step'])
    .where('m.moved_on_at', 'is', null)
    .where('m.read_at', 'is', null)
    .where('m.escalate_at', '<=', now)
    .whereRef('w.step', '=', 'm.step')
    .where('w.exhausted_at', 'is', null)
    .limit(100)
    .execute()
  return rows.map((row) => ({ requestId: row.request_id, step: row.step }))
}

/** How long a status of an unknown message is kept: one of another system's messages, say. */
const EARLY_STATUS_DAYS = 1

/**
 * The statuses that came before their message's id was stored, now that it is; they are taken
 * out of the waiting table (those older than a day are dropped: never ours).
 */
export async function earlyStatuses(store: LeadStore): Promise<MessageStatus[]> {
  await store.db
    .deleteFrom('lead_whatsapp_early_statuses')
    .where('received_at', '<', Date.now() - EARLY_STATUS_DAYS * 24 * 60 * 60 * 1000)
    .execute()
  const rows = await store.db
    .selectFrom('lead_whatsapp_early_statuses as e')
    .innerJoin('lead_whatsapp_messages as m', 'm.wamid', 'e.wamid')
    .select(['e.wamid', 'e.status', 'e.at', 'e.failure'])
    .limit(500)
    .execute()
  if (rows.length === 0) return []
  await store.db
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
