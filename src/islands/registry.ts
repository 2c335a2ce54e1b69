import type { ReactElement } from 'react'

/**
 * Every island of the site: the one place its name is declared. A page places an island with
 * `<Island name>` and registers its render under the same name; both are checked against this.
 */
export type IslandName = 'hero-actions' | 'demo-form'

/** The interactive parts of a page, by the name their placeholder carries. */
export type IslandRegistry = { readonly [Name in IslandName]?: () => ReactElement }

/** Server and client must give an island's useId the same prefix. */
export const islandIdPrefix = (name: IslandName) => `${name}-`
