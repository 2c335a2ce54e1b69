import { trackCtaClicks } from './lib/analytics'
import { captureFirstTouch } from './lib/attribution'
import { session } from './lib/browser-storage'
import { tagManagerId } from './lib/build-env'
import { enhanceHeaderMenu } from './lib/header-menu'
import { focusInPageLinkTargets } from './lib/in-page-focus'
import { startConsent } from './lib/consent-banner'

/** What every prerendered page does once its script runs. */
export function startPage(): void {
  captureFirstTouch(session, new URL(window.location.href), document.referrer)
  enhanceHeaderMenu()
  trackCtaClicks()
  focusInPageLinkTargets()
  // A build-time constant: without a tag manager, the build drops the consent code entirely.
  if (tagManagerId) startConsent(tagManagerId)
}
