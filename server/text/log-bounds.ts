// What the server logs or stores of another party's words is that party's to make as long as it
// likes: an Origin or a path of 8 KB in a request the server refuses at once, a mail server's or
// a CRM's error text in a delivery's last error. Each such value is cut to a few hundred
// characters before it is logged or stored, with a marker that says how much was left out.

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
