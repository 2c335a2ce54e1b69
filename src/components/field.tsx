import { memo, useId, type ComponentProps, type ReactNode } from 'react'
import { Icon } from './icon'
import styles from './field.module.css'

type ShellProps = {
  label: string
  hint?: string
  error?: string
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode
}

/** Label, hint and error of one form control, tied to it by id. */
function FieldShell({ label, hint, error, children }: ShellProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [error && errorId, hint && hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={styles.error}>
          <Icon name="alert" size={18} />
          {error}
        </p>
      )}
    </div>
  )
}

type Described = { label: string; hint?: string; error?: string }

/**
 * A text input with its label, hint and message. Memoised: given plain values (an uncontrolled
 * field), it renders again only when one of them changes, such as its own message.
 */
export const TextField = memo(function TextField({
  label,
  hint,
  error,
  className,
  ...input
}: ComponentProps<'input'> & Described) {
  return (
    <FieldShell label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className={`${styles.control} ${className ?? ''}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...input}
        />
      )}
    </FieldShell>
  )
})

/** A textarea with its label, hint and message; memoised as TextField is. */
export const TextAreaField = memo(function TextAreaField({
  label,
  hint,
  error,
  className,
  ...textarea
}: ComponentProps<'textarea'> & Described) {
  return (
    <FieldShell label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          className={`${styles.control} ${className ?? ''}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...textarea}
        />
      )}
    </FieldShell>
  )
})
