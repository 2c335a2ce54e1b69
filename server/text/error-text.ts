// What a thrown value says, for a log line, a listing or a delivery's last error: an Error's
// message, anything else as text.

export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
