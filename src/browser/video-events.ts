import { anchors } from '../copy/anchors'
import { track } from './analytics'

/**
 * Reports when the visitor starts the video section's player. The facade is same-origin; once
 * the frame holds a document we cannot read, the player from the video host has loaded.
 */
export function reportVideoSectionPlays(doc: Document = document): void {
  const frame = doc.querySelector<HTMLIFrameElement>(`#${anchors.video} iframe`)
  if (!frame) return
  const report = () => {
    if (frame.contentDocument !== null) return
    track({ event: 'video_open', placement: 'video_section' })
    frame.removeEventListener('load', report)
  }
  frame.addEventListener('load', report)
}
