import type { ComponentProps } from 'react'
import styles from './button.module.css'

type ButtonVariant = 'primary' | 'ghost' | 'secondary'
type Look = { variant?: ButtonVariant; size?: 'medium' | 'large'; block?: boolean }

const classes = ({ variant = 'primary', size = 'medium', block = false }: Look, extra?: string) =>
  [styles.button, styles[variant], size === 'large' && styles.large, block && styles.block, extra]
    .filter(Boolean)
    .join(' ')

export function Button({
  variant,
  size,
  block,
  className,
  type = 'button',
  ...props
}: ComponentProps<'button'> & Look) {
  return <button type={type} className={classes({ variant, size, block }, className)} {...props} />
}

export function ButtonLink({
  variant,
  size,
  block,
  className,
  ...props
}: ComponentProps<'a'> & Look) {
  // The content arrives as children through props.
  // eslint-disable-next-line jsx-a11y/anchor-has-content
  return <a className={classes({ variant, size, block }, className)} {...props} />
}
