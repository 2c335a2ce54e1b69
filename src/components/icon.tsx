import type { ComponentProps } from 'react'

/** 24×24 stroke icons. Decorative: the control that holds one carries the name. */
const paths = {
  menu: 'M4 7h16M4 12h16M4 17h16',
  close: 'M6 6l12 12M18 6L6 18',
  play: 'M8 5.5v13l11-6.5z',
  pause: 'M8 5v14M16 5v14',
  chevronLeft: 'M15 5l-7 7 7 7',
  chevronRight: 'M9 5l7 7-7 7',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  alert:
    'M12 8v5m0 3.5v.5M10.3 3.9L2.6 17.5A2 2 0 004.3 20.5h15.4a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z',
  mail: 'M3.5 6.5h17v11h-17zM4 7l8 6 8-6',
  arrowRight: 'M5 12h14M13 6l6 6-6 6',
} as const

type IconName = keyof typeof paths

export type IconFrameProps = Omit<ComponentProps<'svg'>, 'children'> & { size?: number }

/** A decorative 24×24 icon: the control that holds it carries the name. */
export function IconFrame({ size = 24, d, ...props }: IconFrameProps & { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <path d={d} />
    </svg>
  )
}

export function Icon({ name, ...props }: IconFrameProps & { name: IconName }) {
  return (
    <IconFrame
      d={paths[name]}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    />
  )
}
