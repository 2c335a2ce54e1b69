import { BrandIcon } from '../components/brand-icon'
import { ButtonLink } from '../components/button'
import { Icon } from '../components/icon'
import { demoForm } from '../content/demo-form'
import { mailtoHref, site, whatsappHref } from '../content/site'
import { track } from '../lib/analytics'
import { emailRequestLink, whatsappRequestLink, type FallbackRequest } from '../lib/fallback-links'
import styles from './demo-form.module.css'

type Channel = 'whatsapp' | 'email'

function ChannelLinks({ hrefs }: { hrefs: Record<Channel, string> }) {
  const report = (channel: Channel) => () => track({ event: 'demo_request_fallback', channel })
  return (
    <div className={styles.channels}>
      <ButtonLink
        variant="secondary"
        href={hrefs.whatsapp}
        target="_blank"
        rel="noopener"
        onClick={report('whatsapp')}
      >
        <BrandIcon name="whatsapp" size={20} />
        {demoForm.fallback.whatsapp}
      </ButtonLink>
      <ButtonLink variant="secondary" href={hrefs.email} onClick={report('email')}>
        <Icon name="mail" size={20} />
        {demoForm.fallback.email}
      </ButtonLink>
    </div>
  )
}

/** In the error alert: the request that failed, ready to send by WhatsApp or e-mail. */
export function RequestFallbackLinks({ request }: { request: FallbackRequest }) {
  const { fallback } = demoForm
  return (
    <>
      <p>{fallback.lead}</p>
      <ChannelLinks
        hrefs={{
          whatsapp: whatsappRequestLink(site.whatsappNumber, request, fallback),
          email: emailRequestLink(site.contactEmail, request, fallback),
        }}
      />
    </>
  )
}

/**
 * What a visitor whose browser runs no script sees in the form: the other ways to reach sales,
 * and the outcome of a form the browser posted itself (shown by :target, with no script).
 */
export function WithoutScripts() {
  const hrefs = { whatsapp: whatsappHref, email: mailtoHref }
  const { posted, alert } = demoForm
  return (
    <>
      <div id={posted.sentId} className={styles.posted} role="status" tabIndex={-1}>
        <Icon name="check" size={24} />
        <p>
          <strong>{alert.successTitle}</strong> {alert.successText}
        </p>
      </div>
      <div
        id={posted.failedId}
        className={`${styles.posted} ${styles.postedFailed}`}
        role="alert"
        tabIndex={-1}
      >
        <p>
          <strong>{alert.errorTitle}</strong> {posted.failedText}
        </p>
        <ChannelLinks hrefs={hrefs} />
      </div>
      <div className={styles.withoutScripts}>
        <p>{demoForm.withoutScripts}</p>
        <ChannelLinks hrefs={hrefs} />
      </div>
    </>
  )
}
