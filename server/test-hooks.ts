// Test-only routes (GASPRE_TEST_HOOKS=1) that let end-to-end tests make the e-mail stand-in
// fail on purpose — an HTTP error, a dropped connection, a slow answer — for one visitor's
// e-mail address, and read back what was stored. Never registered otherwise.
import type { FastifyPluginAsync } from 'fastify'
import { readOutbox } from './outbox.js'
import { sendText } from './text-reply.js'

export interface Fault {
  /** Answer this status with `body` as text, storing nothing. */
  status?: number
  body?: string
  /** Destroy the socket without answering: the browser sees a network error. */
  drop?: boolean
  /** Wait this long first (at most MAX_DELAY_MS); aborted if the client goes away. */
  delayMs?: number
}

export const MAX_DELAY_MS = 60_000
const MAX_FAULTS = 100

/** Faults queued per e-mail address; each matching request takes the next one. */
export class FaultQueue {
  private readonly byEmail = new Map<string, Fault[]>()

  add(email: string, faults: Fault[]): void {
    this.byEmail.set(email, [...(this.byEmail.get(email) ?? []), ...faults].slice(0, MAX_FAULTS))
  }

  take(email: string | undefined): Fault | undefined {
    if (email === undefined) return undefined
    const queue = this.byEmail.get(email)
    const fault = queue?.shift()
    if (queue?.length === 0) this.byEmail.delete(email)
    return fault
  }

  /** How many faults are still queued for an address: 0 once its last one was taken. */
  pending(email: string): number {
    return this.byEmail.get(email)?.length ?? 0
  }

  /** Drops the faults still queued for one address, or for all. */
  clear(email?: string): void {
    if (email === undefined) this.byEmail.clear()
    else this.byEmail.delete(email)
  }
}

function parseFault(value: unknown): Fault | null {
  if (typeof value !== 'object' || value === null) return null
  const { status, body, drop, delayMs } = value as Record<string, unknown>
  const fault: Fault = {}
  if (status !== undefined) {
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
      return null
    }
    fault.status = status as number
  }
  if (body !== undefined) {
    if (typeof body !== 'string') return null
    fault.body = body
  }
  if (drop !== undefined) {
    if (typeof drop !== 'boolean') return null
    fault.drop = drop
  }
  if (delayMs !== undefined) {
    if (typeof delayMs !== 'number' || !(delayMs >= 0)) return null
    fault.delayMs = Math.min(delayMs, MAX_DELAY_MS)
  }
  return fault
}

export function parseFaultRequest(body: unknown): { email: string; faults: Fault[] } | null {
  if (typeof body !== 'object' || body === null) return null
  const { email, faults } = body as Record<string, unknown>
  if (typeof email !== 'string' || !Array.isArray(faults) || faults.length > MAX_FAULTS) return null
  const parsed = faults.map(parseFault)
  return parsed.every((fault): fault is Fault => fault !== null) ? { email, faults: parsed } : null
}

export interface TestHooksOptions {
  faults: FaultQueue
  outboxFile: string
}

export const testHooks: FastifyPluginAsync<TestHooksOptions> = async (app, options) => {
  app.post('/__test__/faults', async (request, reply) => {
    const parsed = parseFaultRequest(request.body)
    if (parsed === null) {
      return sendText(
        reply,
        400,
        'Expected {"email": string, "faults": [{"status"?, "body"?, "drop"?, "delayMs"?}]}',
      )
    }
    options.faults.add(parsed.email, parsed.faults)
    return reply.header('cache-control', 'no-store').send({ queued: parsed.faults.length })
  })

  // Lets a test wait until a request has taken its fault (is in flight), instead of sleeping.
  app.get<{ Querystring: { email?: string } }>('/__test__/faults', async (request, reply) => {
    const pending = options.faults.pending(request.query.email ?? '')
    return reply.header('cache-control', 'no-store').send({ pending })
  })

  app.delete<{ Querystring: { email?: string } }>('/__test__/faults', async (request, reply) => {
    options.faults.clear(request.query.email)
    return reply.code(204).send()
  })

  app.get<{ Querystring: { email?: string } }>('/__test__/outbox', async (request, reply) => {
    const { records } = await readOutbox(options.outboxFile)
    const email = request.query.email
    const matching =
      typeof email === 'string'
        ? records.filter((record) => record.params.user_email === email)
        : records
    return reply.header('cache-control', 'no-store').send(matching)
  })
}
