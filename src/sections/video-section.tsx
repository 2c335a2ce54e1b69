import { VideoFrame } from '../components/video-frame'
import { anchors } from '../copy/anchors'
import { productVideo, videoSection, youtubeEmbedUrl } from '../copy/home'
import { videoFacadeDocument } from './video-facade'
import section from './section.module.css'
import styles from './video-section.module.css'

/** Static: the player loads inside the frame when the visitor follows the facade's play link. */
export function VideoSection() {
  return (
    <section
      id={anchors.video}
      tabIndex={-1}
      className={`${section.section} ${section.dark}`}
      aria-labelledby="video-titulo"
    >
      <div className={`container ${styles.layout}`}>
        <div className={`${section.intro} ${styles.intro}`}>
          <h2 id="video-titulo" className={`${section.heading} ${styles.heading}`}>
            {videoSection.heading}
          </h2>
          <p className={section.lead}>{videoSection.lead}</p>
        </div>
        <VideoFrame
          className={styles.frame}
          src={youtubeEmbedUrl(true)}
          srcDoc={videoFacadeDocument()}
          title={productVideo.frameTitle}
        />
      </div>
    </section>
  )
}
