import { memo, useId } from 'react'
import { Button } from '../components/button'
import { Dialog } from '../components/dialog'
import { TextAreaField, TextField } from '../components/field'
import { Icon } from '../components/icon'
import { anchors } from '../copy/anchors'
import { demoForm } from '../copy/demo-form'
import { mailConfig } from '../config/build-values'
import { nativeFormAction, nativeFormControls } from '../config/mail-config'
import { HONEYPOT_FIELD, MAX_LENGTH, type FieldName } from '../contract/demo-request'
import { useDemoRequest } from '../browser/demo-request/use-demo-request'
import type { SendResult } from '../browser/demo-request/use-send-request'
import { RequestFallbackLinks } from './demo-form-alternatives'
import styles from './demo-form.module.css'

/** The demo request form and its alerts: the island of the demo section. */
export function DemoForm() {
  const { formRef, errors, sending, result, contactNumber, showSummary, submit, dismissResult } =
    useDemoRequest()
  const { labels, hints, placeholders } = demoForm

  // Uncontrolled: the browser keeps what is typed, and a key renders nothing. Every prop is a
  // plain value, so a field renders again only when its own message changes (memo in field.tsx).
  const fieldProps = (name: FieldName) => ({
    name,
    label: labels[name],
    error: errors[name],
    maxLength: MAX_LENGTH[name],
    placeholder: placeholders[name] || undefined,
  })

  return (
    <>
      <form
        ref={formRef}
        className={styles.form}
        // Sent by script. Without one, the browser posts it to the sending API's form
        // endpoint itself: POST keeps the visitor's data out of addresses and logs.
        action={nativeFormAction(mailConfig)}
        method="post"
        encType="multipart/form-data"
        aria-labelledby={anchors.demoHeading}
        onSubmit={submit}
        // A submit before hydration is held by the script inlined in <head>
        // (islands/hold-early-submits.js); the island takes it over (islands/held-form.ts).
        data-hold-until-hydrated=""
      >
        <p className={styles.note}>{demoForm.requiredNote}</p>
        <div className={styles.row}>
          <TextField {...fieldProps('user_name')} type="text" autoComplete="name" required />
          <TextField
            {...fieldProps('user_email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
          />
        </div>
        <div className={styles.row}>
          <TextField
            {...fieldProps('user_phone')}
            type="tel"
            autoComplete="tel"
            hint={hints.user_phone}
            required
          />
          <TextField
            {...fieldProps('user_group')}
            type="text"
            autoComplete="organization"
            required
          />
        </div>
        <TextAreaField {...fieldProps('message')} hint={hints.message} rows={4} />
        <input type="hidden" name="contact_number" value={contactNumber} />
        {Object.entries(nativeFormControls(mailConfig)).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className={styles.trap} aria-hidden="true">
          <label>
            {demoForm.honeypotLabel}
            <input
              type="text"
              name={HONEYPOT_FIELD}
              tabIndex={-1}
              autoComplete="off"
              defaultValue=""
            />
          </label>
        </div>
        <div role="status" aria-live="polite">
          {showSummary && Object.values(errors).some(Boolean) && (
            <p className={styles.summary}>{demoForm.errors.summary}</p>
          )}
        </div>
        <Button
          type="submit"
          size="large"
          block
          className={styles.submit}
          aria-disabled={sending || undefined}
        >
          {/* Both labels are in the HTML: the page's first script can show the busy one
                  for a submit held before hydration (see the CSS). */}
          <span className={styles.spinner} aria-hidden="true" hidden={!sending} />
          <span className={styles.idleLabel} hidden={sending}>
            {demoForm.submit}
          </span>
          <span className={styles.busyLabel} hidden={!sending}>
            {demoForm.sending}
          </span>
        </Button>
      </form>
      <ResultAlert result={result} onClose={dismissResult} />
    </>
  )
}

/**
 * The window that tells how a send went, with the other ways to send it after a failure.
 * @internal the content editor's preview shows it too (editor/preview.tsx)
 */
export const ResultAlert = memo(function ResultAlert({
  result,
  onClose,
}: {
  result: SendResult | null
  onClose: () => void
}) {
  const alertTextId = useId()
  const { alert } = demoForm
  // The rep's free times may follow a success (decision 027).
  const success = result?.kind === 'success' ? result : undefined
  return (
    <Dialog
      open={result !== null}
      onClose={onClose}
      variant={success?.growing && 'growing'}
      role="alertdialog"
      title={result?.kind === 'success' ? alert.successTitle : alert.errorTitle}
      describedBy={alertTextId}
    >
      <div className={styles.alertBody}>
        <span
          className={`${styles.alertIcon} ${result?.kind === 'success' ? styles.ok : styles.ko}`}
          aria-hidden="true"
        >
          <Icon name={result?.kind === 'success' ? 'check' : 'alert'} size={28} />
        </span>
        <p id={alertTextId} className={styles.alertText}>
          {result?.kind === 'error' ? `${alert.errorPrefix}${result.text}` : alert.successText}
        </p>
        {result?.kind === 'error' && (
          <>
            <p>{alert.errorHelp}</p>
            {result.links && <RequestFallbackLinks links={result.links} />}
          </>
        )}
        <form method="dialog">
          <Button type="submit" block>
            {alert.close}
          </Button>
        </form>
        {success?.next}
      </div>
    </Dialog>
  )
})
