// What a terminal or a spreadsheet would act on, or hide, instead of showing: control characters
// (an escape sequence can hide the lines around it, move the cursor or recolour the screen), the
// marks that set or reverse the direction of text, and the characters that take no space at all
// (a zero-width space, a byte-order mark, the line separator, tag characters that spell hidden
// words). Shown instead as \u001b-style escapes, so a salesperson sees that they are there. The
// joiners that glue an emoji or a Persian word together (U+200C, U+200D) are left alone.

const ACTIVE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu

const escaped = (character: string): string => {
  const code = character.codePointAt(0) ?? 0
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** The text with every such character written as a visible \uXXXX escape; line breaks and tabs stay. */
export const visibleControls = (text: string): string => text.replace(ACTIVE, escaped)
