/**
 * The design tokens (styles/tokens.css) for what CSS cannot reach: the <head>'s theme colour
 * and the video placeholder's own document. Read at build time only; never shipped to a page.
 */
import tokensCss from '../styles/tokens.css?raw'
import { parseTokens, resolveTokens } from './token-values'

const tokens = parseTokens(tokensCss)

/** A token's value as the browser would compute it; a missing token fails the build. */
export function designToken(name: `--${string}`): string {
  return resolveTokens(`var(${name})`, tokens)
}

/** The browser's interface colour on phones: the header's navy. */
export const themeColor = designToken('--navy-900')
