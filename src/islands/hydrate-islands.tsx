import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { islandIdPrefix, type IslandRegistry } from './registry'

/** Hydrates every prerendered island of the page from its registry. */
export function hydrateIslands(islands: IslandRegistry): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? ''
    const render = islands[name]
    if (!render) throw new Error(`No island named "${name}" is registered for this page`)
    hydrateRoot(element, <StrictMode>{render()}</StrictMode>, {
      identifierPrefix: islandIdPrefix(name),
    })
  }
}
