// Characters no person types into a form and no spreadsheet, XML file or terminal takes safely:
// C0 and C1 controls (line breaks and tabs aside), the replacement character that stands for
// bytes that were not text, the marks that reverse the direction of what follows, half of a
// UTF-16 pair without its other half (no text, and six bytes once stored as JSON), and the
// noncharacters, U+FFFE and U+FFFF among them, which XML 1.0 excludes: one of them in a name
// would make the sales team's spreadsheet a file no reader opens. The server refuses them.
const FORBIDDEN =
  '[\\u{0}-\\u{8}\\u{b}\\u{c}\\u{e}-\\u{1f}\\u{7f}-\\u{9f}\\u{fffd}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}]' +
  // Lone surrogates: with the u flag a well-formed pair is one code point and never matches.
  '|[\\u{d800}-\\u{dfff}]' +
  '|[\\u{fdd0}-\\u{fdef}\\u{fffe}\\u{ffff}]' +
  '|[\\u{1fffe}\\u{1ffff}\\u{2fffe}\\u{2ffff}\\u{3fffe}\\u{3ffff}\\u{4fffe}\\u{4ffff}' +
  '\\u{5fffe}\\u{5ffff}\\u{6fffe}\\u{6ffff}\\u{7fffe}\\u{7ffff}\\u{8fffe}\\u{8ffff}' +
  '\\u{9fffe}\\u{9ffff}\\u{afffe}\\u{affff}\\u{bfffe}\\u{bffff}\\u{cfffe}\\u{cffff}' +
  '\\u{dfffe}\\u{dffff}\\u{efffe}\\u{effff}\\u{ffffe}\\u{fffff}\\u{10fffe}\\u{10ffff}]'

// Compiled once: a pattern without the g or y flag keeps no state between tests, and compiling it
// for each value took most of a request check's time.
const HAS_FORBIDDEN = new RegExp(FORBIDDEN, 'u')

export const hasForbiddenCharacters = (value: string): boolean => HAS_FORBIDDEN.test(value)

/** The text with each such character, and each line break or tab, made a space. */
export const withoutForbiddenCharacters = (value: string): string =>
  value.replace(new RegExp(`${FORBIDDEN}|[\\t\\n\\r]`, 'gu'), ' ')

/**
 * Text that shows nothing: white space and format characters alone (a zero-width space, a
 * byte-order mark, direction marks, tag characters, the line and paragraph separators) and the
 * fillers that render as blanks.
 */
const SHOWS_NOTHING = /^[\s\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0\u2800]*$/u

/** Whether a value holds characters but none that a person can see. */
export const isInvisible = (value: string): boolean =>
  value.trim() !== '' && SHOWS_NOTHING.test(value)
