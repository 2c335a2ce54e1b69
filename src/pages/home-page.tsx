import { PageShell } from './page-shell'
import { Clients } from '../sections/clients'
import { DemoCarousel } from '../sections/demo-carousel'
import { DemoSection } from '../sections/demo-section'
import { Hero } from '../sections/hero'
import { Pillars } from '../sections/pillars'
import { VideoSection } from '../sections/video-section'

/** The home page, in order. Islands are filled from home-islands.tsx. */
export function HomePage() {
  return (
    <PageShell linkBase="">
      <Hero />
      <DemoCarousel />
      <Clients />
      <Pillars />
      <VideoSection />
      <DemoSection />
    </PageShell>
  )
}
