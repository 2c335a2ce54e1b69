// What the server logs from a request is the sender's to make as long as the server takes it
// (an Origin or a path of 8 KB, in a request the server refuses at once), and the log is written
// for every request: each such value is cut to a few hundred characters before it is logged,
// with a marker that says how much was left out.

/**
 * The most characters of one value from a request that a log line holds.
 * @internal its tests use it too
 */
export const MAX_LOGGED_CHARS = 300

/** `value` as a log line may hold it: whole, or its start and how many characters were cut. */
export function bounded(value: string, max = MAX_LOGGED_CHARS): string {
  if (value.length <= max) return value
  // Never half a surrogate pair: the line stays valid UTF-8.
  const end = /[\uD800-\uDBFF]/.test(value.charAt(max - 1)) ? max - 1 : max
  return `${value.slice(0, end)}…[${value.length - end} more characters]`
}
