import { useId } from 'react'
import { describe, expect, it } from 'vitest'
import { Island, renderWithIslands } from './island'

function Labelled() {
  const id = useId()
  return <input id={id} aria-label="Nombre" />
}

describe('renderWithIslands (the prerendered page with its islands filled in)', () => {
  it("fills each placed island with its render, ids prefixed as the client's hydration expects", () => {
    const html = renderWithIslands(
      <main>
        <Island name="demo-form" />
      </main>,
      { 'demo-form': () => <Labelled /> },
    )
    expect(html).toMatch(
      /<div data-island="demo-form"><input id="[^"]*demo-form-[^"]+" aria-label="Nombre"\/><\/div>/,
    )
  })

  it('refuses an island that is placed but has no render', () => {
    expect(() => renderWithIslands(<Island name="hero-actions" />, {})).toThrow(
      'Island "hero-actions" is placed but not registered',
    )
  })

  it('refuses an island that is registered but placed nowhere, or twice', () => {
    const render = () => <p>video</p>
    expect(() => renderWithIslands(<main />, { 'hero-actions': render })).toThrow(
      'Island "hero-actions" must appear exactly once',
    )
    expect(() =>
      renderWithIslands(
        <>
          <Island name="hero-actions" />
          <Island name="hero-actions" />
        </>,
        { 'hero-actions': render },
      ),
    ).toThrow('Island "hero-actions" must appear exactly once')
  })
})
