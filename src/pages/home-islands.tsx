import type { IslandRegistry } from '../islands/registry'
import { DemoCarousel } from '../sections/demo-carousel'
import { DemoForm } from '../sections/demo-form'
import { HeroActions } from '../sections/hero-actions'

/** The parts of the home page that hydrate; everything else stays static HTML. */
export const homeIslands = {
  'hero-actions': () => <HeroActions />,
  carousel: () => <DemoCarousel />,
  'demo-form': () => <DemoForm />,
} satisfies IslandRegistry
