import { StrictMode, useEffect, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { markHydrated } from './hydrated-marker'
import { islandIdPrefix, type IslandRegistry } from './registry'

/** Renders its island and reports the commit; it adds no markup, so hydration is unchanged. */
function ReportCommit({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit])
  return children
}

/** Hydrates every prerendered island of the page from its registry. */
export function hydrateIslands(islands: IslandRegistry): void {
  const elements = [...document.querySelectorAll<HTMLElement>('[data-island]')]
  const pending = new Set(elements.map((element) => element.dataset.island ?? ''))
  if (pending.size === 0) markHydrated()
  for (const element of elements) {
    const name = element.dataset.island ?? ''
    const render = islands[name]
    if (!render) throw new Error(`No island named "${name}" is registered for this page`)
    const onCommit = () => {
      pending.delete(name)
      if (pending.size === 0) markHydrated()
    }
    hydrateRoot(
      element,
      <StrictMode>
        <ReportCommit onCommit={onCommit}>{render()}</ReportCommit>
      </StrictMode>,
      { identifierPrefix: islandIdPrefix(name) },
    )
  }
}
