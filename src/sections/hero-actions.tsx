import { useState } from 'react'
import { Button, ButtonLink } from '../components/button'
import { Dialog } from '../components/dialog'
import { Icon } from '../components/icon'
import { VideoFrame } from '../components/video-frame'
import { heroActions, productVideo, videoDialog, youtubeEmbedUrl } from '../copy/home'
import { useAfterPaint } from '../browser/after-paint'
import { track } from '../browser/analytics'
import styles from './hero.module.css'

/** The hero's island: its two calls to action and the video popup. */
export function HeroActions() {
  const [videoOpen, setVideoOpen] = useState(false)

  return (
    <>
      <div className={styles.actions}>
        <ButtonLink size="large" href={heroActions.primaryCta.href} data-cta="hero">
          {heroActions.primaryCta.label}
          <Icon name="arrowRight" size={20} />
        </ButtonLink>
        <Button
          variant="ghost"
          size="large"
          onClick={() => {
            setVideoOpen(true)
            track({ event: 'video_open', placement: 'hero' })
          }}
        >
          <Icon name="play" size={20} />
          {heroActions.videoCta}
        </Button>
      </div>
      <Dialog
        open={videoOpen}
        onClose={() => setVideoOpen(false)}
        title={videoDialog.title}
        closeLabel={videoDialog.close}
        variant="media"
        answersTap
      >
        {/* Mounted only while open: closing the popup stops the video. */}
        <VideoPlayer />
      </Dialog>
    </>
  )
}

/** The popup's player, created once the popup has painted: creating a frame is slow. */
function VideoPlayer() {
  const playerShown = useAfterPaint(true)
  return (
    <VideoFrame
      src={youtubeEmbedUrl(true)}
      title={productVideo.frameTitle}
      withPlayer={playerShown}
    />
  )
}
