import type { ComponentProps } from 'react'
import styles from './logo.module.css'

/** The GASPRE wordmark: a price tag drop and the name. Decorative; the link holds the name. */
export function Logo({
  tone = 'dark',
  ...props
}: ComponentProps<'svg'> & { tone?: 'dark' | 'light' }) {
  return (
    <svg
      className={tone === 'light' ? styles.light : undefined}
      viewBox="0 0 150 36"
      width="132"
      height="32"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <path
        d="M17 2c5 7 11 12.6 11 19.5A11 11 0 0 1 6 21.5C6 14.6 12 9 17 2z"
        className={styles.drop}
      />
      <path
        d="M12.5 23.5l3.5 3.5 6.5-8"
        className={styles.tick}
        fill="none"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text
        x="36"
        y="27"
        className={styles.name}
        fontSize="24"
        fontWeight="800"
        letterSpacing="1"
        textLength="110"
        lengthAdjust="spacingAndGlyphs"
      >
        GASPRE
      </text>
    </svg>
  )
}
