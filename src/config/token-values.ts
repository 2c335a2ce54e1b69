/**
 * The design tokens of styles/tokens.css as values, and the build step that writes those values
 * into the shipped CSS in place of `var(--token)`.
 *
 * Why the build resolves them: Chromium cannot reuse a computed style that depends on a custom
 * property, so every style recalculation of the whole page (opening a modal <dialog> makes the
 * page behind it inert, which restyles every element) resolved each var() again. With the
 * values written in, the first 'Ver video' tap restyled the page in about half the time
 * (decision 006). tokens.css stays the one place a designer changes a value; the dev server
 * keeps var() so a token can still be tried out live in the browser's tools.
 *
 * Not postcss-custom-properties: it keeps declarations and lets unknown, fallback, loop pass.
 */
import type { Plugin } from 'postcss'

const DECLARATION = /(--[\w-]+)\s*:\s*([^;}]+)[;}]/g
const REFERENCE = /var\(\s*(--[\w-]+)\s*\)/g

/** Every `--name: value` that tokens.css declares, in its order. */
export function parseTokens(tokensCss: string): Map<string, string> {
  const withoutComments = tokensCss.replace(/\/\*[\s\S]*?\*\//g, '')
  return new Map(
    [...withoutComments.matchAll(DECLARATION)].map(([, name = '', value = '']) => [
      name,
      value.trim(),
    ]),
  )
}

/**
 * `value` with each `var(--token)` replaced by the token's value, tokens that use tokens
 * included. An unknown token, a var() with a fallback or a loop fails the build: a value the
 * browser would silently drop must not ship.
 */
export function resolveTokens(value: string, tokens: ReadonlyMap<string, string>): string {
  const resolveIn = (text: string, seen: readonly string[]): string =>
    text.replace(REFERENCE, (_, name: string) => {
      const token = tokens.get(name)
      if (token === undefined) throw new Error(`No design token ${name} in styles/tokens.css`)
      if (seen.includes(name)) throw new Error(`Design token loop: ${[...seen, name].join(' → ')}`)
      return resolveIn(token, [...seen, name])
    })
  const resolved = resolveIn(value, [])
  if (resolved.includes('var(')) {
    throw new Error(`Cannot resolve "${value}": only var(--token) without a fallback is supported`)
  }
  return resolved
}

/**
 * A PostCSS plugin for the production build: declarations get the tokens' values, and the
 * token declarations themselves, which nothing reads any more, are left out of the output.
 */
export function inlineDesignTokens(tokens: ReadonlyMap<string, string>): Plugin {
  return {
    postcssPlugin: 'gaspre-inline-design-tokens',
    Declaration(declaration) {
      if (tokens.has(declaration.prop)) {
        const rule = declaration.parent
        declaration.remove()
        if (rule?.nodes?.length === 0) rule.remove()
      } else if (declaration.value.includes('var(')) {
        declaration.value = resolveTokens(declaration.value, tokens)
      }
    },
  }
}
