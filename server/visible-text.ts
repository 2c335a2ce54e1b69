// What a terminal or a spreadsheet would act on instead of showing: control characters (an
// escape sequence can hide the lines around it, move the cursor or recolour the screen) and the
// marks that reverse the direction of text. Shown instead as \u001b-style escapes.

// eslint-disable-next-line no-control-regex
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** The text with every such character written as a visible \uXXXX escape; line breaks and tabs stay. */
export const visibleControls = (text: string): string =>
  text.replace(ACTIVE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
