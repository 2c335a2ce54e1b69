import { useId, useLayoutEffect, useRef, type ReactNode } from 'react'
import { useAfterPaint } from '../browser/after-paint'
import { Icon } from './icon'
import styles from './dialog.module.css'

type DialogProps = {
  open: boolean
  onClose: () => void
  title: string
  /** Accessible name of the close button ('Cerrar'); leave out for dialogs closed by their own action. */
  closeLabel?: string
  role?: 'dialog' | 'alertdialog'
  variant?: 'message' | 'media'
  /** Id of the element that describes the dialog (alerts). */
  describedBy?: string
  /**
   * The dialog opens in answer to a tap ('Ver video'): dim the page in the frame that answers
   * it and make the dialog modal after that paint. Dialogs that open on their own, such as a
   * send's result, open at once.
   */
  answersTap?: boolean
  children: ReactNode
}

/**
 * A modal built on the native <dialog>: the browser makes the page behind it inert, keeps
 * focus inside and closes it on Escape. We add closing on a click outside the panel and
 * give focus back to whatever opened it.
 *
 * Making the page inert restyles every element of it, tens of milliseconds on a slow phone,
 * and none of that shows. So a dialog that answers a tap first paints a veil that dims the
 * page, as the dialog's backdrop will; it becomes modal, with its panel fading in, in the task
 * after that paint (docs/decisions/006-interaction-latency.md).
 */
export function Dialog({
  open,
  onClose,
  title,
  closeLabel,
  role = 'dialog',
  variant = 'message',
  describedBy,
  answersTap = false,
  children,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const titleId = useId()
  const afterPaint = useAfterPaint(open)
  const modal = answersTap ? afterPaint : open

  // Whatever had focus when the dialog was asked for, not when it became modal: a key pressed
  // in between may have moved focus.
  useLayoutEffect(() => {
    if (open)
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
  }, [open])

  // A layout effect, so the panel and showModal() land in the same task and frame.
  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (modal && !dialog.open) {
      dialog.showModal()
    } else if (!modal && dialog.open) {
      dialog.close()
    }
  }, [modal])

  const handleClose = () => {
    opener.current?.focus()
    opener.current = null
    onClose()
  }

  return (
    <>
      {open && !modal && <div className={styles.veil} aria-hidden="true" />}
      {/* A click on the backdrop closes, as Escape (handled by the browser) does for keyboards. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={ref}
        className={`${styles.dialog} ${variant === 'media' ? styles.media : ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onClose={handleClose}
        onClick={(event) => {
          if (event.target === event.currentTarget) event.currentTarget.close()
        }}
      >
        {modal && (
          <div className={styles.panel}>
            <div className={styles.top}>
              <h2 id={titleId} className={styles.title}>
                {title}
              </h2>
              {closeLabel && (
                <button
                  type="button"
                  className={styles.close}
                  aria-label={closeLabel}
                  onClick={() => ref.current?.close()}
                >
                  <Icon name="close" />
                </button>
              )}
            </div>
            {children}
          </div>
        )}
      </dialog>
    </>
  )
}
