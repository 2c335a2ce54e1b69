/**
 * The design tokens (styles/tokens.css) for what CSS cannot reach: the <head>'s theme colour
 * and the video placeholder's own document. Read at build time only; never shipped to a page.
 */
import tokensCss from '../styles/tokens.css?raw'

const declarations = new Map(
  [...tokensCss.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name = '', value = '']) => [
    name,
    value.trim(),
  ]),
)

/** A token's value as tokens.css declares it; a missing token fails the build. */
export function designToken(name: `--${string}`): string {
  const value = declarations.get(name)
  if (value === undefined) throw new Error(`No design token ${name} in styles/tokens.css`)
  return value
}

/** The browser's interface colour on phones: the header's navy. */
export const themeColor = designToken('--navy-900')
