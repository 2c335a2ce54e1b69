// Characters no person types into a form and no spreadsheet or terminal shows safely: C0 and C1
// controls (line breaks and tabs aside), the replacement character that stands for bytes that
// were not text, the marks that reverse the direction of what follows, and half of a UTF-16
// pair without its other half (no text, and six bytes once stored as JSON). The page keeps them
// out of what it sends; the server refuses them.
const FORBIDDEN =
  '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\ufffd\\u202a-\\u202e\\u2066-\\u2069]' +
  '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]'

export const hasForbiddenCharacters = (value: string): boolean => new RegExp(FORBIDDEN).test(value)

/** The text with each such character, and each line break or tab, made a space. */
export const withoutForbiddenCharacters = (value: string): string =>
  value.replace(new RegExp(`${FORBIDDEN}|[\\t\\n\\r]`, 'g'), ' ')
