// The server's protective limits. Their values, and their defaults, are settings: the config
// schema (server/settings/config.ts) is the one place that gives them, and the defaults suit a
// small business's landing page: a visitor sends one request, perhaps a retry; a flood from one
// client, a connection pile-up or a runaway store is what they stop.

import type { ServerConfig } from '../settings/index.js'

export type ServerLimits = Pick<
  ServerConfig,
  | 'rateLimitPerMinute'
  | 'totalLimitPerMinute'
  | 'heldLimit'
  | 'maxConnections'
  | 'maxConnectionsPerClient'
  | 'outboxMaxBytes'
>

/**
 * How long a client may take, in milliseconds. A slow phone on a poor network sends its headers
 * in well under a second and the demo form's 50 KB body in a few; an idle keep-alive
 * connection is worth keeping only while the page's own requests may follow.
 */
export interface ServerTimeouts {
  /** From the connection (or the previous response) to the end of the request's headers. */
  headers: number
  /** From the connection to the end of the whole request, body included. */
  request: number
  /** An idle keep-alive connection is closed after this. */
  keepAlive: number
  /** A connection with no traffic at all in either direction is destroyed after this. */
  idle: number
  /** How often Node checks the headers and request timeouts. */
  checkEvery: number
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headers: 10_000,
  request: 30_000,
  keepAlive: 10_000,
  idle: 30_000,
  checkEvery: 1_000,
}
