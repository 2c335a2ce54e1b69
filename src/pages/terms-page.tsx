import { PageShell } from './page-shell'
import { Terms } from '../sections/terms'

export function TermsPage() {
  return (
    <PageShell linkBase="/">
      <Terms />
    </PageShell>
  )
}
