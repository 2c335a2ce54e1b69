/**
 * Islands: the page is prerendered whole, and only the parts a visitor interacts with are
 * hydrated, each as its own React root. Static sections ship no JavaScript at all.
 *
 * On the server an <Island> renders an empty placeholder that `renderWithIslands` fills with the
 * island's own render (with its own id prefix, matching the client's hydrateRoot).
 */
import type { ReactElement } from 'react'
import { renderToStaticMarkup, renderToString } from 'react-dom/server'
import { islandIdPrefix, type IslandName, type IslandRegistry } from './registry'

export function Island({ name }: { name: IslandName }) {
  return <div data-island={name} />
}

export function renderWithIslands(layout: ReactElement, islands: IslandRegistry): string {
  let html = renderToString(layout)
  for (const name of Object.keys(islands) as IslandName[]) {
    const render = islands[name]
    if (!render) continue
    const placeholder = renderToStaticMarkup(<Island name={name} />)
    if (html.split(placeholder).length !== 2)
      throw new Error(`Island "${name}" must appear exactly once`)
    const island = renderToString(render(), { identifierPrefix: islandIdPrefix(name) })
    html = html.replace(placeholder, () => placeholder.replace('></div>', `>${island}</div>`))
  }
  const unfilled = /<div data-island="([^"]+)"><\/div>/.exec(html)
  if (unfilled) throw new Error(`Island "${unfilled[1]}" is placed but not registered`)
  return html
}
