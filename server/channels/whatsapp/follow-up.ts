// What happens after a WhatsApp message went out: its statuses come in through the status
// webhook (status-webhook.ts), and a message its rep has not read within
// LEADS_ESCALATE_AFTER_MINUTES of working hours, or that failed, goes to the next rep, with one
// mail to LEADS_MAIL_TO that says who did not read it. The escalation is a job of the store's
// queue, written when the Cloud API took the message (store/whatsapp.ts), in a lane of its own
// that the worker works on each poll: no channel's hold delays it, and with several servers each
// is taken by one of them (decision 021).
import type { FastifyBaseLogger } from 'fastify'
import type { WhatsAppConfig } from '../../settings/index.js'
import type { Channel, LeadStore, MessageStatus } from '../../store/index.js'

/** Escalations taken at a time; each is a short transaction. */
const ESCALATIONS_AT_ONCE = 16

export class WhatsAppFollowUp {
  constructor(
    private readonly store: LeadStore,
    private readonly config: WhatsAppConfig,
    private readonly options: {
      /** Channels that carry the mail saying who did not read it. */
      carriers: readonly Channel[]
      now: () => number
      /** Something moved on: the worker sends it (and the mail) at once. */
      moved: () => void
      log: () => FastifyBaseLogger | null
      /** How long an escalation is held while it is worked (the worker's lease). */
      leaseMs: number
    },
  ) {}

  private said(
    requestId: string,
    because: 'unread' | 'failed',
    moved: { next: string | null } | null,
  ): boolean {
    if (moved === null) return false
    const what = because === 'unread' ? 'not read in time' : 'failed'
    this.options
      .log()
      ?.warn(
        { event: 'whatsapp-moved-on', id: requestId, because, next: moved.next !== null },
        moved.next !== null
          ? `demo-request ${requestId}: WhatsApp message ${what}; it goes to the next rep`
          : `demo-request ${requestId}: WhatsApp message ${what} and every rep was tried`,
      )
    return true
  }

  private get moveOn() {
    return {
      at: this.options.now(),
      carriers: this.options.carriers,
      escalateAfterMinutes: this.config.escalateAfterMinutes,
    }
  }

  /**
   * Applies the statuses that came before their message's id was stored, then works the
   * escalations due by the clock: each message still unread goes to the next rep. Returns how
   * many moved as unread.
   */
  async escalateUnread(): Promise<number> {
    const early = await this.store.whatsapp.earlyStatuses()
    if (early.length > 0) await this.receiveStatuses(early)
    let moved = 0
    for (;;) {
      const due = await this.store.queue.claimEscalations(
        ESCALATIONS_AT_ONCE,
        this.options.leaseMs,
        this.options.now(),
      )
      for (const { requestId, step } of due) {
        const escalated = await this.store.whatsapp.escalate(requestId, step, this.moveOn)
        if (this.said(requestId, 'unread', escalated)) moved++
      }
      if (due.length < ESCALATIONS_AT_ONCE) break
    }
    if (moved > 0) this.options.moved()
    return moved
  }

  /** Records what the status webhook reported; a failed message goes to the next rep at once. */
  async receiveStatuses(statuses: readonly MessageStatus[]): Promise<void> {
    let moved = 0
    for (const failed of await this.store.whatsapp.recordStatuses(statuses)) {
      const next = await this.store.whatsapp.moveOn(failed.requestId, failed.step, {
        ...this.moveOn,
        because: 'failed',
        failure: failed.failure,
        requeue: true,
      })
      if (this.said(failed.requestId, 'failed', next)) moved++
    }
    if (moved > 0) this.options.moved()
  }
}
