import { useState } from 'react'
import { Button, ButtonLink } from '../components/button'
import { Dialog } from '../components/dialog'
import { Icon } from '../components/icon'
import { VideoFrame } from '../components/video-frame'
import { hero, productVideo, videoDialog, youtubeEmbedUrl } from '../content/home'
import { track } from '../lib/analytics'
import styles from './hero.module.css'

export function Hero() {
  const [videoOpen, setVideoOpen] = useState(false)

  return (
    <section className={styles.hero} aria-labelledby="titulo-principal">
      <div className="container">
        <div className={styles.content}>
          <p className={styles.eyebrow}>{hero.eyebrow}</p>
          <h1 id="titulo-principal" className={styles.title}>
            {hero.title}
          </h1>
          <p className={styles.lead}>{hero.lead}</p>
          <div className={styles.actions}>
            <ButtonLink size="large" href={hero.primaryCta.href} data-cta="hero">
              {hero.primaryCta.label}
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
              {hero.videoCta}
            </Button>
          </div>
        </div>
      </div>
      <div className="container">
        <dl className={styles.proof}>
          {hero.proof.map((item) => (
            <div key={item.figure} className={styles.proofItem}>
              <dt className={styles.figure}>{item.figure}</dt>
              <dd className={styles.figureLabel}>{item.label}</dd>
            </div>
          ))}
        </dl>
      </div>
      <Dialog
        open={videoOpen}
        onClose={() => setVideoOpen(false)}
        title={videoDialog.title}
        closeLabel={videoDialog.close}
        variant="media"
      >
        {/* Mounted only while open: closing the popup stops the video. */}
        <VideoFrame src={youtubeEmbedUrl(true)} title={productVideo.frameTitle} />
      </Dialog>
    </section>
  )
}
