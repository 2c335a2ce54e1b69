import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import postcss from 'postcss'
import { describe, expect, it } from 'vitest'
import { inlineDesignTokens, parseTokens, resolveTokens } from './token-values'

const TOKENS = parseTokens(`
  /* Brand */
  :root {
    --navy: #0b1f3a;
    --ink: var(--navy); /* a token made of a token */
    --space-4: 1rem;
    --text-hero: clamp(2rem, 1.2rem + 3.6vw, 3.5rem);
  }
`)

/** The CSS the build would ship for `css`: the plugin run by PostCSS itself. */
const shipped = (css: string, tokens = TOKENS) =>
  postcss([inlineDesignTokens(tokens)]).process(css, { from: 'component.module.css' }).css

describe('design token values', () => {
  it('reads every declaration of tokens.css, without its comments', () => {
    expect([...TOKENS]).toEqual([
      ['--navy', '#0b1f3a'],
      ['--ink', 'var(--navy)'],
      ['--space-4', '1rem'],
      ['--text-hero', 'clamp(2rem, 1.2rem + 3.6vw, 3.5rem)'],
    ])
  })

  it('writes the values in place of var(), tokens made of tokens included', () => {
    expect(resolveTokens('calc(100dvh - 2 * var(--space-4))', TOKENS)).toBe(
      'calc(100dvh - 2 * 1rem)',
    )
    expect(resolveTokens('1px solid var(--ink)', TOKENS)).toBe('1px solid #0b1f3a')
    expect(resolveTokens('var( --text-hero )', TOKENS)).toBe('clamp(2rem, 1.2rem + 3.6vw, 3.5rem)')
    expect(resolveTokens('block', TOKENS)).toBe('block')
  })

  it('fails the build on a value the browser would drop: an unknown token, a fallback, a loop', () => {
    expect(() => resolveTokens('var(--nope)', TOKENS)).toThrow('No design token --nope')
    expect(() => resolveTokens('var(--navy, red)', TOKENS)).toThrow('without a fallback')
    const looping = parseTokens(':root { --a: var(--b); --b: var(--a); }')
    expect(() => resolveTokens('var(--a)', looping)).toThrow('--a → --b → --a')
  })

  it('the build plugin resolves declarations and drops the token declarations nothing reads', () => {
    expect(shipped('.card { color: var(--ink); padding: var(--space-4) 0; }')).toBe(
      '.card { color: #0b1f3a; padding: 1rem 0; }',
    )
    expect(shipped(':root { --navy: #0b1f3a; --space-4: 1rem; }\n.a { margin: 0; }')).toBe(
      '.a { margin: 0; }',
    )
    // A rule keeps what is not a token; an at-rule's declarations are resolved too.
    expect(shipped(':root { --navy: #0b1f3a; color-scheme: light; }')).toBe(
      ':root { color-scheme: light; }',
    )
    expect(shipped('@media (min-width: 48em) { .a { gap: var(--space-4); } }')).toBe(
      '@media (min-width: 48em) { .a { gap: 1rem; } }',
    )
  })

  it('the build plugin fails the build on a var() it cannot resolve', () => {
    expect(() => shipped('.a { color: var(--nope); }')).toThrow('No design token --nope')
    expect(() => shipped('.a { color: var(--navy, red); }')).toThrow('without a fallback')
    const looping = parseTokens(':root { --a: var(--b); --b: var(--a); }')
    expect(() => shipped('.a { color: var(--a); }', looping)).toThrow('--a → --b → --a')
  })

  it('knows every token the real tokens.css declares, and each resolves to a value', () => {
    const real = parseTokens(
      readFileSync(join(import.meta.dirname, '../styles/tokens.css'), 'utf8'),
    )
    expect(real.size).toBeGreaterThan(50)
    for (const name of real.keys()) expect(resolveTokens(`var(${name})`, real)).not.toMatch(/var\(/)
  })
})
