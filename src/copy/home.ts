import carouselContent from '../../content/inicio.yml?field=carousel'
import productVideo from '../../content/inicio.yml?field=productVideo'
import { videoOrigin } from '../config/site-facts'
import { withCarouselControls } from './fill-in'
import type { HomeContent } from './schema'

// The home page's words and pictures, as content/inicio.yml has them, one module per field so
// that an island's script carries only its own (the clients' logos, for one, never ride along).
export { default as head } from '../../content/inicio.yml?field=head'
export { default as hero } from '../../content/inicio.yml?field=hero'
export { default as heroActions } from '../../content/inicio.yml?field=heroActions'
export { default as heroBoard } from '../../content/inicio.yml?field=heroBoard'
export { default as pillars } from '../../content/inicio.yml?field=pillars'
export { default as videoDialog } from '../../content/inicio.yml?field=videoDialog'
export { default as videoSection } from '../../content/inicio.yml?field=videoSection'
export { productVideo }

/** A station's prices on the hero's board, with which way each one last moved. */
export type BoardRow = HomeContent['heroBoard']['own']
export type BoardMove = BoardRow['moves'][number]

export const carousel = withCarouselControls(carouselContent)

export const youtubeEmbedUrl = (autoplay: boolean) =>
  `${videoOrigin}/embed/${productVideo.youtubeId}?rel=0${autoplay ? '&autoplay=1' : ''}`
