// The server's protective limits, read from the environment by main.ts. The defaults suit a
// small business's landing page and should never need touching: a visitor sends one request,
// perhaps a retry; a flood from one address, a connection pile-up or a runaway outbox is what
// they stop.
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from './email-stand-in.js'
import { DEFAULT_OUTBOX_MAX_BYTES } from './outbox.js'

export const DEFAULT_MAX_CONNECTIONS = 1024

export interface ServerLimits {
  /** Demo requests accepted per client address per minute (the sending endpoints only). */
  rateLimitPerMinute: number
  /** Open connections beyond this are refused at once. */
  maxConnections: number
  /** The outbox refuses requests that would grow it past this many bytes. */
  outboxMaxBytes: number
}

export const DEFAULT_LIMITS: ServerLimits = {
  rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  outboxMaxBytes: DEFAULT_OUTBOX_MAX_BYTES,
}

export class LimitsError extends Error {}

const ENV_NAMES: Record<keyof ServerLimits, string> = {
  rateLimitPerMinute: 'DEMO_RATE_LIMIT_PER_MINUTE',
  maxConnections: 'MAX_CONNECTIONS',
  outboxMaxBytes: 'OUTBOX_MAX_BYTES',
}

/** Limits from DEMO_RATE_LIMIT_PER_MINUTE, MAX_CONNECTIONS and OUTBOX_MAX_BYTES (positive integers). */
export function readLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const limits = { ...DEFAULT_LIMITS }
  for (const key of Object.keys(ENV_NAMES) as (keyof ServerLimits)[]) {
    const name = ENV_NAMES[key]
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') continue
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
      throw new LimitsError(`${name} must be a positive whole number, not "${raw}"`)
    }
    limits[key] = value
  }
  return limits
}
