import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react'
import { afterNextPaint } from '../browser/after-next-paint'
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
  /** `growing`: a message that may grow once open; anchored at its top, so nothing on it moves. */
  variant?: 'message' | 'media' | 'growing'
  /** Id of the element that describes the dialog (alerts). */
  describedBy?: string
  /**
   * The dialog opens in answer to a tap ('Ver video'): dim the page in the frame that answers
   * it and make the dialog modal after that paint; closing hides it in the frame that answers
   * the tap (or Escape) and gives the page back after that paint. Dialogs that open on their
   * own, such as a send's result, open and close at once.
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
 * after that paint (docs/decisions/006-interaction-latency.md). Closing costs the same restyle
 * (the page turns live again), and focus going back forces it at once: such a dialog is hidden
 * first, and closed in the task after that paint (decision 016).
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

  // A close asked for and not yet made: the dialog is hidden (out of sight and of the
  // accessibility tree), the page still inert for one frame.
  const pendingClose = useRef<(() => void) | null>(null)
  useEffect(() => () => pendingClose.current?.(), [])

  /** Closes now, or (a dialog that answers taps) hides now and closes after the next paint. */
  const requestClose = (dialog: HTMLDialogElement) => {
    if (!answersTap) return dialog.close()
    if (pendingClose.current) return
    dialog.hidden = true
    pendingClose.current = afterNextPaint(() => {
      pendingClose.current = null
      dialog.close()
    })
  }

  const handleClose = () => {
    if (ref.current) ref.current.hidden = false
    opener.current?.focus()
    opener.current = null
    onClose()
  }

  return (
    <>
      {open && !modal && <div className={styles.veil} aria-hidden="true" />}
      {/* A click on the backdrop closes, as Escape does for keyboards. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={ref}
        className={`${styles.dialog} ${variant === 'message' ? '' : styles[variant]}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        onClose={handleClose}
        onCancel={(event) => {
          // Escape: the browser would close it at once; it is closed as a tap closes it.
          if (!answersTap) return
          event.preventDefault()
          requestClose(event.currentTarget)
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) requestClose(event.currentTarget)
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
                  onClick={() => {
                    if (ref.current) requestClose(ref.current)
                  }}
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
