import type { ComponentProps } from 'react'
import styles from './video-frame.module.css'

type VideoFrameProps = Required<Pick<ComponentProps<'iframe'>, 'src' | 'title'>> &
  Pick<ComponentProps<'iframe'>, 'srcDoc'> & { className?: string }

/** The embedded player, with only the permissions it needs (the Permissions-Policy allows them). */
export function VideoFrame({ src, title, srcDoc, className }: VideoFrameProps) {
  return (
    <div className={`${styles.frame} ${className ?? ''}`}>
      <iframe
        src={src}
        srcDoc={srcDoc}
        title={title}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
      />
    </div>
  )
}
