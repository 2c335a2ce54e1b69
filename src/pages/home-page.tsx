import { PageShell } from './page-shell'
import { Island } from '../islands/island'
import { Clients } from '../sections/clients'
import { DemoSection } from '../sections/demo-section'
import { Hero } from '../sections/hero'
import { Pillars } from '../sections/pillars'
import { VideoSection } from '../sections/video-section'

/** The home page, in order. Islands are filled from home-islands.tsx. */
export function HomePage() {
  return (
    <PageShell linkBase="">
      <Hero />
      <Island name="carousel" />
      <Clients />
      <Pillars />
      <VideoSection />
      <DemoSection />
    </PageShell>
  )
}
