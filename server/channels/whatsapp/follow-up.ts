// What happens after a WhatsApp message went out: its statuses come in through the status
// webhook (whatsapp-webhook.ts), and a message its rep has not read within
// LEADS_ESCALATE_AFTER_MINUTES of working hours, or that failed, goes to the next rep, with one
// mail to LEADS_MAIL_TO that says who did not read it. Run by the delivery worker on each poll;
// with several servers, each move is made by one of them (store/whatsapp.ts).
import type { FastifyBaseLogger } from 'fastify'
import type { WhatsAppConfig } from '../../settings/index.js'
import type { Channel, LeadStore, MessageStatus } from '../../store/index.js'

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
    },
  ) {}

  private async move(
    requestId: string,
    step: number,
    because: 'unread' | 'failed',
    failure: string | null,
  ): Promise<boolean> {
    const moved = await this.store.whatsapp.moveOn(requestId, step, {
      because,
      failure,
      at: this.options.now(),
      carriers: this.options.carriers,
      escalateAfterMinutes: this.config.escalateAfterMinutes,
      requeue: true,
    })
    if (moved === null) return false
    this.options
      .log()
      ?.warn(
        { event: 'whatsapp-moved-on', id: requestId, because, next: moved.next !== null },
        moved.next !== null
          ? `demo-request ${requestId}: WhatsApp message ${because === 'unread' ? 'not read in time' : 'failed'}; it goes to the next rep`
          : `demo-request ${requestId}: WhatsApp message ${because === 'unread' ? 'not read in time' : 'failed'} and every rep was tried`,
      )
    return true
  }

  /**
   * Applies the statuses that came before their message's id was stored, then moves on every
   * message whose rep has not read it by its deadline; returns how many moved as unread.
   */
  async escalateUnread(): Promise<number> {
    const early = await this.store.whatsapp.earlyStatuses()
    if (early.length > 0) await this.receiveStatuses(early)
    let moved = 0
    for (const due of await this.store.whatsapp.dueUnread(this.options.now())) {
      if (await this.move(due.requestId, due.step, 'unread', null)) moved++
    }
    if (moved > 0) this.options.moved()
    return moved
  }

  /** Records what the status webhook reported; a failed message goes to the next rep at once. */
  async receiveStatuses(statuses: readonly MessageStatus[]): Promise<void> {
    let moved = 0
    for (const failed of await this.store.whatsapp.recordStatuses(statuses)) {
      if (await this.move(failed.requestId, failed.step, 'failed', failed.failure)) moved++
    }
    if (moved > 0) this.options.moved()
  }
}
