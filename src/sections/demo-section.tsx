import { Icon } from '../components/icon'
import { demoForm } from '../copy/demo-form'
import { demoSection } from '../copy/demo-section'
import { mailtoHref, whatsappHref } from '../copy/site'
import { Island } from '../islands/island'
import { ChannelLinks } from './demo-form-alternatives'
import section from './section.module.css'
import styles from './demo-form.module.css'

/**
 * The demo request section. Only the form hydrates (the "demo-form" island): the pitch, and what
 * a browser without scripts needs, stay static HTML.
 */
export function DemoSection() {
  return (
    <section
      id={demoSection.id}
      tabIndex={-1}
      className={section.section}
      aria-labelledby={demoSection.headingId}
    >
      <div className={`container ${styles.layout}`}>
        <div className={styles.pitch}>
          <h2 id={demoSection.headingId} className={section.heading}>
            {demoSection.heading}
          </h2>
          <p className={section.lead}>{demoSection.lead}</p>
          <ul className={styles.promises}>
            {demoSection.promises.map((promise) => (
              <li key={promise}>
                <Icon name="check" size={22} />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <div className={styles.card}>
          <WithoutScripts />
          <Island name="demo-form" />
          <PrivacyNotice />
        </div>
      </div>
    </section>
  )
}

/**
 * What a visitor whose browser runs no script sees in the form: the other ways to reach sales,
 * and the outcome of a form the browser posted itself (shown by :target, with no script).
 */
function WithoutScripts() {
  const hrefs = { whatsapp: whatsappHref, email: mailtoHref }
  const { posted } = demoSection
  const { alert } = demoForm
  return (
    <>
      <div
        id={posted.sentId}
        className={`${styles.posted} ${styles.postedSent}`}
        role="status"
        tabIndex={-1}
      >
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
        <p>{demoSection.withoutScripts}</p>
        <ChannelLinks hrefs={hrefs} />
      </div>
    </>
  )
}

/** Who is responsible for the data and what for, right under the submit button. */
function PrivacyNotice() {
  const { privacyNotice } = demoSection
  return (
    <p className={styles.privacyNotice}>
      {privacyNotice.text}
      <a href={privacyNotice.link.href}>{privacyNotice.link.label}</a>
      {privacyNotice.end}
    </p>
  )
}
