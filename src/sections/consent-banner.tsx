import { Button } from '../components/button'
import { consent } from '../copy/site'

/**
 * The choice about third-party tags, prerendered hidden, then opened and styled by
 * browser/consent-banner.ts (plain DOM code, so it works on pages without React). It is a bar, not
 * a modal: the page stays usable, and nothing loads until the visitor picks one of the two equal
 * buttons. A named region rather than a section: it comes before the page's h1, so it has no
 * heading of its own.
 */
export function ConsentBanner() {
  return (
    <div role="region" aria-labelledby="privacidad-titulo" data-consent-banner="" hidden>
      <div className="container consent-inner">
        <div className="consent-text">
          <p id="privacidad-titulo" className="consent-title">
            {consent.title}
          </p>
          <p>
            {consent.text} <a href={consent.more.href}>{consent.more.label}</a>
          </p>
        </div>
        <div className="consent-actions">
          <Button variant="secondary" className="consent-choice" data-consent-choice="granted">
            {consent.accept}
          </Button>
          <Button variant="secondary" className="consent-choice" data-consent-choice="denied">
            {consent.reject}
          </Button>
        </div>
      </div>
    </div>
  )
}
