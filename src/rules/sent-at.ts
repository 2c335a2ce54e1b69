/**
 * Where the page keeps the time of the last request that reached the sales team: the e-mail
 * SDK's rate limiter writes it, and the own-server sender keeps the same limit with it.
 * @internal its tests use it too
 */
export const RATE_LIMIT_KEY = 'gaspre:demo-request-sent-at'
