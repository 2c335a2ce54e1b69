import { IconFrame, type IconFrameProps } from './icon'

/** Filled brand marks for the footer's contact and social links. Decorative, like Icon. */
const brandPaths = {
  whatsapp:
    'M12 2.2a9.7 9.7 0 00-8.4 14.6L2.3 21.8l5.1-1.3A9.7 9.7 0 1012 2.2zm0 17.7a8 8 0 01-4.1-1.1l-.3-.2-3 .8.8-2.9-.2-.3A8 8 0 1112 19.9zm4.4-6c-.2-.1-1.4-.7-1.7-.8-.2-.1-.4-.1-.5.1l-.8 1c-.1.2-.3.2-.5.1a6.5 6.5 0 01-3.2-2.8c-.2-.4.2-.4.7-1.3.1-.1 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.5-.4h-.5a.9.9 0 00-.7.3 2.8 2.8 0 00-.9 2.1 4.9 4.9 0 001 2.6 11.2 11.2 0 004.3 3.8c1.6.7 2.2.7 3 .6a2.6 2.6 0 001.7-1.2 2.1 2.1 0 00.1-1.2c0-.1-.2-.2-.5-.3z',
  linkedin:
    'M4.98 3.5a2.5 2.5 0 11-.01 5 2.5 2.5 0 01.01-5zM3 9.75h4v11H3zm6.5 0h3.8v1.5h.06c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.77 2.65 4.77 6.1v5.45h-4v-4.83c0-1.15-.02-2.64-1.6-2.64-1.6 0-1.85 1.25-1.85 2.55v4.92h-4z',
  facebook:
    'M13.5 21.5v-8h2.7l.4-3.2h-3.1V8.3c0-.9.3-1.5 1.6-1.5h1.7V4a22 22 0 00-2.5-.1c-2.5 0-4.2 1.5-4.2 4.3v2.2H7.4v3.2h2.7v8z',
} as const

type BrandName = keyof typeof brandPaths

export function BrandIcon({ name, ...props }: IconFrameProps & { name: BrandName }) {
  return <IconFrame d={brandPaths[name]} fill="currentColor" {...props} />
}
