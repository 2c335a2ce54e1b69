import type { ReactElement } from 'react'

/** The interactive parts of a page, by the name their placeholder carries. */
export type IslandRegistry = Readonly<Record<string, () => ReactElement>>

/** Server and client must give an island's useId the same prefix. */
export const islandIdPrefix = (name: string) => `${name}-`
