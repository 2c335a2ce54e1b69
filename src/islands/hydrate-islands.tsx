import { StrictMode, useEffect, useState, type ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { markHydrated } from './hydrated-marker'
import { islandIdPrefix, type IslandName, type IslandRegistry } from './registry'

/**
 * Renders its island and reports when it has settled; it adds no markup, so hydration is
 * unchanged. The island's first effects may set state (a restored draft, for one): the render
 * they cause commits together with this component's own first update, so the second effect
 * runs once the island shows that state.
 */
function ReportSettled({ onSettled, children }: { onSettled: () => void; children: ReactNode }) {
  const [updated, setUpdated] = useState(false)
  useEffect(() => {
    if (updated) onSettled()
    // The extra update is the point: it commits together with the island's own first updates.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    else setUpdated(true)
  }, [updated, onSettled])
  return children
}

/** Hydrates every prerendered island of the page from its registry. */
export function hydrateIslands(islands: IslandRegistry): void {
  const elements = [...document.querySelectorAll<HTMLElement>('[data-island]')]
  const pending = new Set(elements.map((element) => element.dataset.island ?? ''))
  if (pending.size === 0) markHydrated()
  for (const element of elements) {
    const name = (element.dataset.island ?? '') as IslandName
    const render = islands[name]
    if (!render) throw new Error(`No island named "${name}" is registered for this page`)
    const onSettled = () => {
      pending.delete(name)
      if (pending.size === 0) markHydrated()
    }
    hydrateRoot(
      element,
      <StrictMode>
        <ReportSettled onSettled={onSettled}>{render()}</ReportSettled>
      </StrictMode>,
      { identifierPrefix: islandIdPrefix(name) },
    )
  }
}
