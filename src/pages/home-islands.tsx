import type { IslandRegistry } from '../islands/registry'
import { DemoForm } from '../sections/demo-form'
import { HeroActions } from '../sections/hero-actions'

/** The parts of the home page that hydrate; everything else stays static HTML. */
export const homeIslands = {
  'hero-actions': () => <HeroActions />,
  'demo-form': () => <DemoForm />,
} satisfies IslandRegistry
