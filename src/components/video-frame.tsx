import type { ComponentProps } from 'react'
import styles from './video-frame.module.css'

type VideoFrameProps = Required<Pick<ComponentProps<'iframe'>, 'src' | 'title'>> &
  Pick<ComponentProps<'iframe'>, 'srcDoc'> & {
    className?: string
    /** False draws the empty 16:9 frame only: creating a frame is too slow for a tap's answer. */
    withPlayer?: boolean
  }

/** The embedded player, with only the permissions it needs (the Permissions-Policy allows them). */
export function VideoFrame({ src, title, srcDoc, className, withPlayer = true }: VideoFrameProps) {
  return (
    <div className={`${styles.frame} ${className ?? ''}`}>
      {withPlayer && (
        <iframe
          src={src}
          srcDoc={srcDoc}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        />
      )}
    </div>
  )
}
