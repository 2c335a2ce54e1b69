import { readFileSync } from 'node:fs'
import { join } from 'node:path'
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

/** Runs the plugin's Declaration hook over a rule the way PostCSS walks it. */
function runPlugin(declarations: Record<string, string>) {
  const rule = {
    nodes: [] as { prop: string; value: string }[],
    removed: false,
    remove() {
      this.removed = true
    },
  }
  for (const [prop, value] of Object.entries(declarations)) {
    rule.nodes.push({ prop, value })
  }
  const plugin = inlineDesignTokens(TOKENS)
  for (const node of [...rule.nodes]) {
    plugin.Declaration({
      get prop() {
        return node.prop
      },
      get value() {
        return node.value
      },
      set value(value: string) {
        node.value = value
      },
      remove: () => rule.nodes.splice(rule.nodes.indexOf(node), 1),
      parent: rule,
    })
  }
  return rule
}

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
    const component = runPlugin({ color: 'var(--ink)', padding: 'var(--space-4) 0' })
    expect(component.nodes).toEqual([
      { prop: 'color', value: '#0b1f3a' },
      { prop: 'padding', value: '1rem 0' },
    ])
    expect(component.removed).toBe(false)

    const root = runPlugin({ '--navy': '#0b1f3a', '--space-4': '1rem' })
    expect(root.nodes).toEqual([])
    expect(root.removed).toBe(true)
  })

  it('knows every token the real tokens.css declares, and each resolves to a value', () => {
    const real = parseTokens(
      readFileSync(join(import.meta.dirname, '../styles/tokens.css'), 'utf8'),
    )
    expect(real.size).toBeGreaterThan(50)
    for (const name of real.keys()) expect(resolveTokens(`var(${name})`, real)).not.toMatch(/var\(/)
  })
})
