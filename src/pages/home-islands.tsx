import type { IslandRegistry } from '../islands/registry'
import { DemoCarousel } from '../sections/demo-carousel'
import { DemoForm } from '../sections/demo-form'
import { Hero } from '../sections/hero'

/** The parts of the home page that hydrate; everything else stays static HTML. */
export const homeIslands = {
  hero: () => <Hero />,
  carousel: () => <DemoCarousel />,
  'demo-form': () => <DemoForm />,
} satisfies IslandRegistry
