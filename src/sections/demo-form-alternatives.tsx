import { ButtonLink } from '../components/button'
import { demoForm } from '../copy/demo-form'
import { track } from '../browser/analytics'
import type { FallbackChannel, FallbackLinks } from '../rules/fallback-links'
import styles from './demo-form.module.css'

export function ChannelLinks({ hrefs }: { hrefs: FallbackLinks }) {
  const report = (channel: FallbackChannel) => () =>
    track({ event: 'demo_request_fallback', channel })
  return (
    <div className={styles.channels}>
      <ButtonLink
        variant="secondary"
        href={hrefs.whatsapp}
        target="_blank"
        rel="noopener"
        onClick={report('whatsapp')}
      >
        {demoForm.fallback.whatsapp}
      </ButtonLink>
      <ButtonLink variant="secondary" href={hrefs.email} onClick={report('email')}>
        {demoForm.fallback.email}
      </ButtonLink>
    </div>
  )
}

/** In the error alert: the request that failed, ready to send by WhatsApp or e-mail. */
export function RequestFallbackLinks({ links }: { links: FallbackLinks }) {
  return (
    <>
      <p>{demoForm.fallback.lead}</p>
      <ChannelLinks hrefs={links} />
    </>
  )
}
