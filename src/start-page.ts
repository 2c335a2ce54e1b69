import { trackCtaClicks } from './lib/analytics'
import { captureFirstTouch } from './lib/attribution'
import { session } from './lib/browser-storage'
import { tagManagerId } from './lib/build-env'
import { enhanceHeaderMenu } from './lib/header-menu'
import { focusInPageLinkTargets } from './lib/in-page-focus'
import { loadTagManagerWhenIdle } from './lib/tag-manager'

/** What every prerendered page does once its script runs. */
export function startPage(): void {
  captureFirstTouch(session, new URL(window.location.href), document.referrer)
  enhanceHeaderMenu()
  trackCtaClicks()
  focusInPageLinkTargets()
  loadTagManagerWhenIdle(tagManagerId)
}
