import type { ComponentProps } from 'react'

/** The GASPRE wordmark: a price tag drop and the name. Decorative; the link holds the name. */
export function Logo({
  tone = 'dark',
  ...props
}: ComponentProps<'svg'> & { tone?: 'dark' | 'light' }) {
  const ink = tone === 'dark' ? '#0b1f3a' : '#ffffff'
  return (
    <svg
      viewBox="0 0 150 36"
      width="132"
      height="32"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <path d="M17 2c5 7 11 12.6 11 19.5A11 11 0 0 1 6 21.5C6 14.6 12 9 17 2z" fill="#ff8a3d" />
      <path
        d="M12.5 23.5l3.5 3.5 6.5-8"
        fill="none"
        stroke="#0b1f3a"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text
        x="36"
        y="27"
        fill={ink}
        fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"
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
