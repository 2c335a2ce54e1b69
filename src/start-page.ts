import { trackCtaClicks } from './browser/analytics'
import { captureFirstTouch } from './rules/attribution'
import { session } from './browser/storage'
import { tagManagerId } from './config/build-values'
import { enhanceHeaderMenu } from './browser/header-menu'
import { focusInPageLinkTargets } from './browser/in-page-focus'
import { startConsent } from './browser/consent-banner'

/** What every prerendered page does once its script runs. */
export function startPage(): void {
  captureFirstTouch(session, new URL(window.location.href), document.referrer)
  enhanceHeaderMenu()
  trackCtaClicks()
  focusInPageLinkTargets()
  // A build-time constant: without a tag manager, the build drops the consent code entirely.
  if (tagManagerId) startConsent(tagManagerId)
}
