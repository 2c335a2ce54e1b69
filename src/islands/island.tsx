/**
 * Islands: the page is prerendered whole, and only the parts a visitor interacts with are
 * hydrated, each as its own React root. Static sections ship no JavaScript at all.
 *
 * On the server an <Island> renders an empty placeholder that `renderWithIslands` fills with the
 * island's own render (with its own id prefix, matching the client's hydrateRoot).
 */
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { islandIdPrefix, type IslandRegistry } from './registry'

export function Island({ name }: { name: string }) {
  return <div data-island={name} />
}

export function renderWithIslands(layout: ReactElement, islands: IslandRegistry): string {
  let html = renderToString(layout)
  for (const [name, render] of Object.entries(islands)) {
    const placeholder = `<div data-island="${name}"></div>`
    if (html.split(placeholder).length !== 2)
      throw new Error(`Island "${name}" must appear exactly once`)
    const island = renderToString(render(), { identifierPrefix: islandIdPrefix(name) })
    html = html.replace(placeholder, () => `<div data-island="${name}">${island}</div>`)
  }
  return html
}
